package io.tidemark.client.admin;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionalTableInspectorTest {

    private static TableDescriptor table(int fastPathPriority) throws IOException {
        return TableDescriptorBuilder.newBuilder(TableName.valueOf("accounts"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a"))
                        .setMaxVersions(Integer.MAX_VALUE)
                        .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                                TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE)
                        .build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.SNAPSHOT_OBSERVER)
                        .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY).build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.COMPACTION_OBSERVER)
                        .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY).build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.FAST_PATH_OBSERVER)
                        .setPriority(fastPathPriority).build())
                .build();
    }

    @Test
    void fastPathObserverAfterTheSnapshotObserverIsBlocking() throws IOException {
        List<TableProblem> problems = new TransactionalTableInspector(Integer.MAX_VALUE)
                .problems(table(TransactionalTableLayout.COPROCESSOR_PRIORITY + 1));
        assertEquals(1, problems.size());
        assertEquals(TableProblem.Severity.BLOCKING, problems.get(0).severity());
        assertTrue(problems.get(0).toString().contains(String.valueOf(TransactionalTableLayout.FAST_PATH_PRIORITY)));
    }

    @Test
    void fastPathObserverBeforeTheSnapshotObserverIsFine() throws IOException {
        assertTrue(new TransactionalTableInspector(Integer.MAX_VALUE)
                .problems(table(TransactionalTableLayout.FAST_PATH_PRIORITY)).isEmpty());
    }
}
