package io.tidemark.bench.e2e;

import io.tidemark.bench.omid.OmidTso;
import io.tidemark.client.PostCommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.omid.committable.hbase.HBaseCommitTableConfig;
import org.apache.omid.transaction.HBaseTransactionManager;
import org.apache.omid.transaction.RollbackException;
import org.apache.omid.transaction.TTable;
import org.apache.omid.transaction.Transaction;
import org.apache.omid.transaction.TransactionException;
import org.apache.omid.transaction.TransactionManager;
import org.apache.omid.tso.client.CellId;
import org.apache.omid.tso.client.TSOClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Apache Omid's store of {@code bench e2e --omid}, on the shared mini-cluster with Omid's TSO in this JVM: its
 * transactions commit, and what they wrote is read back, with either post-commit; the TSO runs in low-latency mode.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OmidStoreTest {

    private static final int ROWS = 20;

    private static OmidTso tso;

    @BeforeAll
    static void startOmidTso() throws IOException {
        tso = OmidTso.start(SharedMiniCluster.connection().getConfiguration());
    }

    @AfterAll
    static void stopOmidTso() throws IOException {
        if (tso != null) {
            tso.close();
        }
    }

    @ParameterizedTest
    @EnumSource(PostCommitMode.class)
    void omidTransactionsCommitAndAreReadBack(PostCommitMode postCommit) throws IOException {
        Connection connection = SharedMiniCluster.connection();
        TableName table = TableName.valueOf("omid_store_test_" + postCommit.name().toLowerCase(Locale.ROOT));
        try (OmidStore store = new OmidStore(connection, table, tso, postCommit, KeyValueStore.splitKeys(ROWS, 2))) {
            store.preload(ROWS, bytes("preloaded"));
            assertArrayEquals(bytes("preloaded"), readBack(table, ROWS - 1));

            try (KeyValueStore.Session session = store.session()) {
                // One transaction over both regions: a read, two writes, and a read of a key it wrote.
                assertTrue(session.run(List.of(new KeyValueStore.Operation(3, null),
                        new KeyValueStore.Operation(4, bytes("four")),
                        new KeyValueStore.Operation(15, bytes("fifteen")),
                        new KeyValueStore.Operation(15, null))));
                // A read-only transaction commits too.
                assertTrue(session.run(List.of(new KeyValueStore.Operation(0, null))));
            }

            assertArrayEquals(bytes("four"), readBack(table, 4));
            assertArrayEquals(bytes("fifteen"), readBack(table, 15));
            assertArrayEquals(bytes("preloaded"), readBack(table, 3));
            assertArrayEquals(bytes("preloaded"), readBack(table, 0));
        }
    }

    @Test
    void omidsTsoRunsInLowLatencyModeAndLeavesTheCommitRecordToItsClient() throws Exception {
        TSOClient client = TSOClient.newInstance(tso.tsoClientConfiguration());
        try {
            long start = client.getNewStartTimestamp().get();
            long commit = client.commit(start, Set.of(new CellId() {
                @Override
                public long getCellId() {
                    return 42;
                }

                @Override
                public long getTableId() {
                    return 1;
                }

                @Override
                public long getRowId() {
                    return 42;
                }
            })).get();
            assertTrue(commit > start);
        } finally {
            client.close().get();
        }
        // Omid's other mode writes each commit's record from the TSO before it replies (the low watermark, in a
        // family of its own, is the TSO's in both modes).
        Scan commitRecords = new Scan().addFamily(new HBaseCommitTableConfig().getCommitTableFamily());
        try (Table commitTable = SharedMiniCluster.connection().getTable(TableName.valueOf(tso.commitTableName()));
             ResultScanner records = commitTable.getScanner(commitRecords)) {
            assertEquals(null, records.next(), "the TSO wrote a commit record");
        }
    }

    @Test
    void splitKeysCutTheKeysIntoEqualRanges() {
        byte[][] keys = KeyValueStore.splitKeys(100, 4);
        assertEquals(3, keys.length);
        assertArrayEquals(KeyValueStore.row(25), keys[0]);
        assertArrayEquals(KeyValueStore.row(50), keys[1]);
        assertArrayEquals(KeyValueStore.row(75), keys[2]);
        assertEquals(0, KeyValueStore.splitKeys(100, 1).length, "one region: no split");
    }

    /** The value at {@code key}, read by a transaction of a client of Omid's own, apart from the store's. */
    private static byte[] readBack(TableName table, int key) throws IOException {
        try (TransactionManager tm = HBaseTransactionManager.builder(
                tso.clientConfiguration(PostCommitMode.SYNC)).build();
             TTable reader = new TTable(SharedMiniCluster.connection(), table.getNameAsString())) {
            Transaction tx = tm.begin();
            byte[] value = reader.get(tx, new Get(KeyValueStore.row(key))).getValue(KeyValueStore.FAMILY,
                    KeyValueStore.QUALIFIER);
            tm.commit(tx);
            return value;
        } catch (InterruptedException | TransactionException | RollbackException e) {
            throw new AssertionError("Omid could not read key " + key, e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
