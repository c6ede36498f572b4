package io.tidemark.coprocessor.horizon;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GcHorizonTest {

    private static final TableName TABLE = TableName.valueOf("horizon");

    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void aSnapshotAtOrBelowWhatCompactionCollectedWithIsRefused() throws IOException {
        Region region = region("a");
        GcHorizon horizon = GcHorizon.of(region);
        horizon.check(100, commitTable);
        horizon.raise(100);
        horizon.raise(50);
        SnapshotTooOldException refused = assertThrows(SnapshotTooOldException.class,
                () -> horizon.check(100, commitTable));
        assertTrue(refused.getMessage().contains("snapshot 100") && refused.getMessage().contains("new transaction"),
                refused.getMessage());
        assertDoesNotThrow(() -> horizon.check(101, commitTable));
    }

    @Test
    void anOpenedRegionStartsFromThePersistedLowWatermarkReadOnceAtItsFirstCheck() throws IOException {
        commitTable.raiseLowWatermark(200);
        Region region = region("b");
        GcHorizon horizon = GcHorizon.of(region);
        assertThrows(SnapshotTooOldException.class, () -> horizon.check(200, commitTable));
        commitTable.raiseLowWatermark(300);
        commitTable.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertDoesNotThrow(() -> horizon.check(250, commitTable), "read once: neither the new value nor the outage");
    }

    @Test
    void bothObserversOfARegionShareOneHorizonAndAReopenedRegionGetsANewOne() {
        Region first = region("c");
        assertSame(GcHorizon.of(first), GcHorizon.of(first));
        GcHorizon.of(first).raise(500);
        Region reopened = region("c");
        GcHorizon fresh = GcHorizon.of(reopened);
        assertNotSame(GcHorizon.of(first), fresh);
        assertDoesNotThrow(() -> fresh.check(400, commitTable), "nothing persisted, nothing collected yet");
        GcHorizon.forget(reopened);
        assertNotSame(fresh, GcHorizon.of(reopened));
    }

    @Test
    void onlyTablesThatCollectGarbageAreChecked() throws IOException {
        assertTrue(GcHorizon.appliesTo(table(true, "", "")));
        assertFalse(GcHorizon.appliesTo(table(false, "", "")), "no family marked transactional");
        assertFalse(GcHorizon.appliesTo(TableDescriptorBuilder.newBuilder(TABLE)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f")).build()), "no compaction observer");
    }

    @Test
    void theObserversShareTheHorizonOnlyWhenLoadedFromTheSameJar() throws IOException {
        assertTrue(GcHorizon.sharedBy(table(true, "", "")));
        assertTrue(GcHorizon.sharedBy(table(true, "hdfs:///tm.jar", "hdfs:///tm.jar")));
        assertFalse(GcHorizon.sharedBy(table(true, "hdfs:///tm.jar", "")));
        assertFalse(GcHorizon.sharedBy(table(true, "hdfs:///a.jar", "hdfs:///b.jar")));
    }

    private static TableDescriptor table(boolean marked, String snapshotJar, String compactionJar)
            throws IOException {
        ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"));
        if (marked) {
            family.setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                    TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE);
        }
        CoprocessorDescriptorBuilder snapshot = CoprocessorDescriptorBuilder.newBuilder(
                TransactionalTableLayout.SNAPSHOT_OBSERVER);
        CoprocessorDescriptorBuilder compaction = CoprocessorDescriptorBuilder.newBuilder(
                TransactionalTableLayout.COMPACTION_OBSERVER);
        if (!snapshotJar.isEmpty()) {
            snapshot.setJarPath(snapshotJar);
        }
        if (!compactionJar.isEmpty()) {
            compaction.setJarPath(compactionJar);
        }
        return TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(family.build())
                .setCoprocessor(snapshot.build()).setCoprocessor(compaction.build()).build();
    }

    /** A region object with nothing but its identity and name: one per (re)opening. */
    private static Region region(String startKey) {
        RegionInfo info = RegionInfoBuilder.newBuilder(TABLE).setStartKey(Bytes.toBytes(startKey))
                .setRegionId(1).build();
        return (Region) Proxy.newProxyInstance(Region.class.getClassLoader(), new Class<?>[] {Region.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getRegionInfo")) {
                        return info;
                    }
                    if (method.getName().equals("hashCode")) {
                        return System.identityHashCode(proxy);
                    }
                    if (method.getName().equals("equals")) {
                        return proxy == args[0];
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
