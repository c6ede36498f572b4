package io.tidemark.coprocessor.binding;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a region takes as given about its table: from the descriptor and the observer's properties only. */
class TableBindingTest {

    private static final TableName TABLE = TableName.valueOf("accounts");

    @Test
    void theBindingComesFromTheDescriptorAndTheObserversPropertiesNotTheServersConfiguration() {
        Configuration server = new Configuration(false);
        server.set(TidemarkConfig.COMMIT_TABLE.key(), "server:commits");
        server.set(TidemarkConfig.TIMESTAMP_TABLE.key(), "server:timestamps");
        server.set(TidemarkConfig.FASTPATH_READ_WAIT_MS.key(), "7");
        server.set(TableBinding.HBASE_MAX_CLOCK_SKEW, "1234");
        TableDescriptor table = table(true, Map.of(TransactionalTableLayout.FEATURES_PROPERTY, "compaction-gc;fast-path",
                TidemarkConfig.TIMESTAMP_TABLE.key(), "app:timestamps"))
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "app:commits").build();
        TableBinding binding = TableBinding.of(table, server);
        assertEquals(TableName.valueOf("app:commits"), binding.commitTable());
        assertEquals(TableName.valueOf("app:timestamps"), binding.timestampTable());
        assertEquals(EnumSet.of(TableFeature.COMPACTION_GC, TableFeature.FAST_PATH), binding.features());
        assertTrue(binding.collectsGarbage());
        assertNull(binding.settings().hadoopConfiguration().get(TidemarkConfig.FASTPATH_READ_WAIT_MS.key()),
                "a Tidemark key of the region server's configuration does not reach the table");
        assertEquals("1234", binding.settings().hadoopConfiguration().get(TableBinding.HBASE_MAX_CLOCK_SKEW),
                "HBase's own clock-skew bound does");
        assertNull(binding.problem());
    }

    @Test
    void anUnboundTableUsesTheObserversCommitTableElseTheDefault() {
        TableBinding named = TableBinding.of(table(true, Map.of(TidemarkConfig.COMMIT_TABLE.key(), "p:commits")).build(),
                new Configuration(false));
        assertEquals(TableName.valueOf("p:commits"), named.commitTable());
        TableBinding unnamed = TableBinding.of(table(true, Map.of()).build(), new Configuration(false));
        assertEquals(TidemarkConfig.COMMIT_TABLE.defaultValue(), unnamed.commitTable());
        assertEquals(TidemarkConfig.TIMESTAMP_TABLE.defaultValue(), unnamed.timestampTable());
    }

    @Test
    void nothingIsCollectedWithoutTheFeatureOrAMarkedFamily() {
        assertFalse(TableBinding.of(table(true, Map.of(TransactionalTableLayout.FEATURES_PROPERTY,
                "server-side-snapshots")).build(), new Configuration(false)).collectsGarbage());
        assertFalse(TableBinding.of(table(false, Map.of(TransactionalTableLayout.FEATURES_PROPERTY,
                "compaction-gc")).build(), new Configuration(false)).collectsGarbage());
    }

    @Test
    void anUnknownFeatureIsAProblemThatRefusesRequestsRatherThanARegionThatCannotOpen() {
        TableBinding binding = TableBinding.of(table(true, Map.of(TransactionalTableLayout.FEATURES_PROPERTY,
                "fast-path;time-travel")).build(), new Configuration(false));
        assertTrue(binding.problem().contains("time-travel"), binding.problem());
        assertTrue(binding.features().isEmpty());
    }

    @Test
    void aTableOfTheEarlierLayoutGetsTheFeaturesOfItsObserversAndTheirProperties() throws IOException {
        Configuration server = new Configuration(false);
        server.set(TidemarkConfig.TIMESTAMP_TABLE.key(), "server:timestamps");
        TableDescriptor table = TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(family(true))
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.SNAPSHOT_OBSERVER)
                        .build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.COMPACTION_OBSERVER)
                        .setProperty(TidemarkConfig.COMMIT_TABLE.key(), "old:commits").build())
                .build();
        TableBinding binding = TableBinding.ofLegacyLayout(table, server);
        assertEquals(EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.COMPACTION_GC), binding.features());
        assertEquals(TableName.valueOf("old:commits"), binding.commitTable());
        assertEquals(TableName.valueOf("server:timestamps"), binding.timestampTable(),
                "observers of the earlier layout read the region server's configuration");
    }

    private static TableDescriptorBuilder table(boolean marked, Map<String, String> properties) {
        CoprocessorDescriptorBuilder observer = CoprocessorDescriptorBuilder.newBuilder(
                TransactionalTableLayout.TRANSACTIONAL_OBSERVER);
        properties.forEach(observer::setProperty);
        try {
            return TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(family(marked))
                    .setCoprocessor(observer.build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static org.apache.hadoop.hbase.client.ColumnFamilyDescriptor family(boolean marked) {
        ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"));
        if (marked) {
            family.setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                    TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE);
        }
        return family.build();
    }
}
