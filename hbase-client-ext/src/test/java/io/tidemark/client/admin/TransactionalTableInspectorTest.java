package io.tidemark.client.admin;

import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionalTableInspectorTest {

    private static final TableName COMMITS = TableName.valueOf("tidemark:commits");
    private static final TransactionalTableInspector INSPECTOR = new TransactionalTableInspector(Integer.MAX_VALUE,
            COMMITS);

    private static TableDescriptorBuilder builder() throws IOException {
        return TableDescriptorBuilder.newBuilder(TableName.valueOf("accounts"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a"))
                        .setMaxVersions(Integer.MAX_VALUE)
                        .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                                TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE)
                        .build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                        .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY)
                        .setProperty(TransactionalTableLayout.FEATURES_PROPERTY, "server-side-snapshots;compaction-gc;"
                                + "fast-path")
                        .build());
    }

    @Test
    void aTableWithTheTransactionalObserverAndItsDefaultFeaturesHasNoProblem() throws IOException {
        assertTrue(INSPECTOR.problems(builder().build()).isEmpty());
        assertTrue(TransactionalTableInspector.hasServerSideSnapshots(builder().build()));
    }

    @Test
    void theObserversOfTheEarlierLayoutAreReportedWithTheCommandThatUpgradesThem() throws IOException {
        TableDescriptor legacy = builder().removeCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.SNAPSHOT_OBSERVER)
                        .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY).build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.COMPACTION_OBSERVER)
                        .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY).build())
                .build();
        List<TableProblem> problems = INSPECTOR.problems(legacy);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals(TableProblem.Severity.ADVISORY, problems.get(0).severity());
        assertTrue(problems.get(0).isFixedByEnable());
        assertTrue(problems.get(0).description().contains("./tidemark table enable accounts"),
                problems.get(0).description());
        assertTrue(TransactionalTableInspector.hasServerSideSnapshots(legacy), "the earlier layout still works");
    }

    @Test
    void aMissingFeatureIsAdvisory() throws IOException {
        TableDescriptor snapshotsOnly = builder().removeCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                        .setProperty(TransactionalTableLayout.FEATURES_PROPERTY,
                                TableFeature.SERVER_SIDE_SNAPSHOTS.propertyName())
                        .build())
                .build();
        List<TableProblem> problems = INSPECTOR.problems(snapshotsOnly);
        assertEquals(1, problems.size(), problems.toString());
        assertFalse(problems.get(0).isBlocking());
        assertTrue(problems.get(0).description().contains("garbage collection"), problems.get(0).description());
    }

    @Test
    void aTableBeingBulkLoadedIsReportedAndAGarbledLoadIsBlocking() throws IOException {
        List<TableProblem> loading = INSPECTOR.problems(builder()
                .setValue(TransactionalTableLayout.LOADING_AT_KEY, "4096").build());
        assertEquals(1, loading.size());
        assertEquals(TableProblem.Severity.ADVISORY, loading.get(0).severity());
        assertTrue(loading.get(0).description().contains("finish-load accounts"), loading.get(0).description());

        List<TableProblem> garbled = INSPECTOR.problems(builder()
                .setValue(TransactionalTableLayout.LOADING_AT_KEY, "soon").build());
        assertEquals(1, garbled.size());
        assertEquals(TableProblem.Severity.BLOCKING, garbled.get(0).severity());
    }

    @Test
    void anUnmarkedFamilyIsBlockingAndEnableFixesIt() throws IOException {
        TableDescriptor table = builder()
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("plain"))
                        .setMaxVersions(Integer.MAX_VALUE).build())
                .build();
        List<TableProblem> problems = INSPECTOR.problems(table);
        assertEquals(1, problems.size(), problems.toString());
        TableProblem unmarked = problems.get(0);
        assertTrue(unmarked.isBlocking());
        assertTrue(unmarked.isFixedByEnable());
        assertTrue(unmarked.description().contains("'plain' is not marked transactional"), unmarked.description());
        assertTrue(unmarked.description().contains("sweeper"), unmarked.description());
    }

    @Test
    void aTableOfAnotherCommitTableIsBlockingAndNotFixedByEnable() throws IOException {
        TableDescriptor ours = builder()
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "tidemark:commits").build();
        assertTrue(INSPECTOR.problems(ours).isEmpty());
        TableDescriptor theirs = builder()
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "other:commits").build();
        List<TableProblem> problems = INSPECTOR.problems(theirs);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).isBlocking());
        assertFalse(problems.get(0).isFixedByEnable());
        assertTrue(problems.get(0).description().contains("'other:commits'"), problems.get(0).description());
    }
}
