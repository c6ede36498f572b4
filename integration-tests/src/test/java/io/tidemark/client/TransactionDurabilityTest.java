package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.OwnTestCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link Transaction#setDurability}: which WAL durability reaches the region servers with each of a transaction's
 * writes (tentative cells, shadow cells, the commit record, the removal at rollback), as the region servers see them.
 */
class TransactionDurabilityTest {

    private static final byte[] Q = Bytes.toBytes("q");
    /**
     * Low-latency mode: the client writes the commit record itself, so the transaction's durability reaches it. A
     * cluster of its own: the recorder is attached to its commit table.
     */
    @RegisterExtension
    static final OwnTestCluster OWN = OwnTestCluster.of("durability", CommitMode.LOW_LATENCY, config -> { });

    private static TestCluster cluster;
    private static TableName data;
    private static TTable table;

    /** One mutation as a region server received it. */
    record Received(TableName table, String kind, byte[] row, boolean shadowCells, Durability durability) { }

    /** Records every mutation its regions receive, with the durability it carries. */
    public static final class DurabilityRecorder implements RegionCoprocessor, RegionObserver {
        static final Queue<Received> RECEIVED = new ConcurrentLinkedQueue<>();

        @Override
        public Optional<RegionObserver> getRegionObserver() {
            return Optional.of(this);
        }

        @Override
        public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                                   MiniBatchOperationInProgress<Mutation> batch) {
            TableName table = context.getEnvironment().getRegionInfo().getTable();
            for (int i = 0; i < batch.size(); i++) {
                Mutation m = batch.getOperation(i);
                boolean shadow = m.getFamilyCellMap().values().stream().flatMap(List::stream)
                        .anyMatch(TransactionDurabilityTest::isShadowCell);
                RECEIVED.add(new Received(table, m.getClass().getSimpleName(), m.getRow(), shadow,
                        m.getDurability()));
            }
        }
    }

    private static boolean isShadowCell(Cell c) {
        return CellEncoding.isShadowQualifier(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength());
    }

    @BeforeAll
    static void setUp() throws IOException {
        cluster = OWN.get();
        data = cluster.createTable("durability", Set.of());
        record(data);
        record(cluster.commitTable.tableName());
        table = new TTable(TestCluster.connection(), data);
    }

    private static void record(TableName name) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
                    .setCoprocessor(DurabilityRecorder.class.getName()).build());
        }
    }

    @AfterAll
    static void tearDown() throws IOException {
        table.close();
        TestCluster.drop(data);
    }

    @BeforeEach
    void forget() {
        DurabilityRecorder.RECEIVED.clear();
    }

    private static List<Received> received(TableName name, byte[] row, String kind, boolean shadowCells) {
        return DurabilityRecorder.RECEIVED.stream()
                .filter(r -> r.table().equals(name) && r.kind().equals(kind) && r.shadowCells() == shadowCells)
                .filter(r -> row == null || Bytes.equals(r.row(), row))
                .collect(Collectors.toList());
    }

    private static Set<Durability> durabilities(List<Received> received) {
        return received.stream().map(Received::durability).collect(Collectors.toSet());
    }

    private static byte[] read(byte[] row) throws IOException {
        Transaction reader = cluster.tm.begin();
        byte[] value = table.get(reader, new Get(row).addColumn(F, Q)).getValue(F, Q);
        cluster.tm.commit(reader);
        return value;
    }

    @Test
    void aTransactionsDurabilityReachesItsTentativeCellsShadowCellsAndCommitRecord() throws IOException {
        byte[] row = Bytes.toBytes("async");
        Transaction tx = cluster.tm.begin();
        tx.setDurability(Durability.ASYNC_WAL);
        table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
        cluster.tm.commit(tx);

        assertEquals(Set.of(Durability.ASYNC_WAL), durabilities(received(data, row, "Put", false)), "tentative cells");
        assertEquals(Set.of(Durability.ASYNC_WAL), durabilities(received(data, row, "Put", true)), "shadow cells");
        List<Received> records = received(cluster.commitTable.tableName(),
                cluster.commitTable.schema().rowKey(tx.startTimestamp()), "Put", false);
        assertEquals(Set.of(Durability.ASYNC_WAL), durabilities(records), "commit record");
        assertArrayEquals(Bytes.toBytes("v"), read(row), "the committed value is readable");
    }

    @Test
    void aMutationsOwnDurabilityWinsForItsTentativeCells() throws IOException {
        byte[] row = Bytes.toBytes("own");
        Transaction tx = cluster.tm.begin();
        tx.setDurability(Durability.SKIP_WAL);
        Put put = new Put(row).addColumn(F, Q, Bytes.toBytes("v"));
        put.setDurability(Durability.SYNC_WAL);
        table.put(tx, put);
        cluster.tm.commit(tx);

        assertEquals(Set.of(Durability.SYNC_WAL), durabilities(received(data, row, "Put", false)), "tentative cells");
        assertEquals(Set.of(Durability.SKIP_WAL), durabilities(received(data, row, "Put", true)), "shadow cells");
    }

    @Test
    void withoutASettingEveryWriteFollowsItsTable() throws IOException {
        byte[] row = Bytes.toBytes("default");
        Transaction tx = cluster.tm.begin();
        table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
        table.delete(tx, new Delete(Bytes.toBytes("other")).addColumn(F, Q));
        cluster.tm.commit(tx);

        assertEquals(Durability.USE_DEFAULT, tx.durability());
        assertEquals(Set.of(Durability.USE_DEFAULT), durabilities(received(data, null, "Put", false)));
        assertEquals(Set.of(Durability.USE_DEFAULT), durabilities(received(data, null, "Put", true)));
        assertEquals(Set.of(Durability.USE_DEFAULT), durabilities(received(cluster.commitTable.tableName(),
                cluster.commitTable.schema().rowKey(tx.startTimestamp()), "Put", false)));
    }

    @Test
    void aRollbackRemovesTheTentativeCellsWithTheTransactionsDurability() throws IOException {
        byte[] row = Bytes.toBytes("rolled-back");
        Transaction tx = cluster.tm.begin();
        tx.setDurability(Durability.ASYNC_WAL);
        table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
        cluster.tm.rollback(tx);

        assertEquals(Set.of(Durability.ASYNC_WAL), durabilities(received(data, row, "Delete", false)));
        assertNull(read(row), "nothing of a rolled-back transaction is visible");
    }

    @Test
    void durabilityIsRefusedWhenNullOrAfterTheTransactionEnded() throws IOException {
        Transaction tx = cluster.tm.begin();
        assertThrows(NullPointerException.class, () -> tx.setDurability(null));
        cluster.tm.commit(tx);
        TransactionStateException ended = assertThrows(TransactionStateException.class,
                () -> tx.setDurability(Durability.SYNC_WAL));
        assertEquals("cannot set the durability in transaction " + tx.startTimestamp()
                + ": it is COMMITTED; begin a new transaction", ended.getMessage());
    }
}
