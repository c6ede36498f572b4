package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.fastpath.StaleFastPathOperationException;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.BeforeDelivery;
import io.tidemark.testing.faults.DuplicateDelivery;
import io.tidemark.testing.faults.LostReplies;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retried fast-path writes do not change outcomes (issue 8, item 1): HBase's client re-sends a fast-path Get whose
 * reply was lost, and the re-sent write meets its own first attempt. Each test delivers a write twice (the first
 * attempt applied, its answer dropped), or loses a real reply in the region server, or delivers an old attempt late.
 */
@ExtendWith(SharedTestClusters.class)
class FastPathRetryTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] N = Bytes.toBytes("n");

    private static TestCluster env;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster shared) throws Exception {
        env = shared;
        table = env.createTable("retry", EnumSet.of(TableFeature.FAST_PATH));
    }

    @Test
    void aReSentIncrementIsAppliedOnceAndReturnsTheFirstResult() throws Exception {
        byte[] row = Bytes.toBytes("increment");
        DuplicateDelivery twice = new DuplicateDelivery(FastPathRetryTest::isFastPathWrite);
        try (Connection duplicating = twice.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(table, duplicating)) {
            assertEquals(1, fp.increment(row, F, N, 1), "the re-sent increment answers the first one's result");
            assertEquals(6, fp.increment(row, F, N, 5));
        }
        assertEquals(2, twice.duplicates());
        assertEquals(6, counter(row), "each increment was applied once");
    }

    @Test
    void aReSentConditionalWriteIsReportedAsCommitted() throws Exception {
        byte[] row = Bytes.toBytes("conditional");
        try (FastPathTable plain = env.fastPath(table)) {
            plain.put(new Put(row).addColumn(F, Q, Bytes.toBytes("old")));
        }
        DuplicateDelivery twice = new DuplicateDelivery(FastPathRetryTest::isFastPathWrite);
        try (Connection duplicating = twice.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(table, duplicating)) {
            long read = fp.getForUpdate(new Get(row)).version();
            long committed = fp.putIfUnchanged(new Put(row).addColumn(F, Q, Bytes.toBytes("new")), read);
            assertEquals(committed, fp.get(new Get(row)).version(), "the answer is the first attempt's commit");
        }
        assertEquals(1, twice.duplicates());
        assertArrayEquals(Bytes.toBytes("new"), value(row));
    }

    @Test
    void aReSentCheckAndMutateIsReportedAsApplied() throws Exception {
        byte[] row = Bytes.toBytes("check-and-mutate");
        DuplicateDelivery twice = new DuplicateDelivery(FastPathRetryTest::isFastPathWrite);
        try (Connection duplicating = twice.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(table, duplicating)) {
            assertTrue(fp.checkAndMutate(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.toBytes("first"))),
                    "the column was absent, so the first attempt applied the put; the re-send must say so");
            assertFalse(fp.checkAndMutate(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.toBytes("again"))),
                    "a check that failed stays failed when re-sent");
        }
        assertArrayEquals(Bytes.toBytes("first"), value(row));
    }

    @Test
    void aReSentPutDoesNotFailWhenAGenericWriteLandedMeanwhile() throws Exception {
        byte[] row = Bytes.toBytes("put");
        AtomicReference<Transaction> generic = new AtomicReference<>();
        DuplicateDelivery twice = new DuplicateDelivery(FastPathRetryTest::isFastPathWrite, op -> {
            // Between the applied first attempt and the re-send, a generic transaction writes the row tentatively.
            try (TTable t = new TTable(TestCluster.connection(), table)) {
                Transaction tx = env.tm.begin();
                t.put(tx, new Put(row).addColumn(G, Q, Bytes.toBytes("generic")));
                generic.set(tx);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long version;
        try (Connection duplicating = twice.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(table, duplicating)) {
            version = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("fast")));
        } finally {
            if (generic.get() != null) {
                env.tm.commit(generic.get());
            }
        }
        assertTrue(version < generic.get().startTimestamp(), "the put committed before the generic write began");
        assertArrayEquals(Bytes.toBytes("fast"), value(row));
    }

    @Test
    void aStaleDuplicateIsRefusedAndRunsNothing() throws Exception {
        byte[] row = Bytes.toBytes("stale");
        AtomicReference<Get> first = new AtomicReference<>();
        BeforeDelivery capture = new BeforeDelivery(FastPathRetryTest::isFastPathWrite,
                op -> first.compareAndSet(null, (Get) op));
        try (Connection capturing = capture.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(table, capturing)) {
            assertEquals(1, fp.increment(row, F, N, 1));
            assertEquals(2, fp.increment(row, F, N, 1));
        }
        assertNotNull(first.get());
        try (Table raw = TestCluster.connection().getTable(table)) {
            IOException refused = assertThrows(IOException.class, () -> raw.get(first.get()),
                    "the first increment, delivered again after the second ran");
            assertNotNull(FastPathErrors.find(refused, StaleFastPathOperationException.class), refused.toString());
        }
        assertEquals(2, counter(row), "the stale duplicate changed nothing");
    }

    @Test
    void aWriteWhoseReplyTheRegionServerLostIsRetriedByHBaseAndRunsOnce() throws Exception {
        TableName lossy = env.createTable("lossy", EnumSet.of(TableFeature.FAST_PATH));
        byte[] row = Bytes.toBytes("lost-reply");
        LostReplies.attachTo(TestCluster.connection(), lossy);
        try (FastPathTable fp = env.fastPath(lossy)) {
            LostReplies.armNext(lossy, 1);
            assertEquals(7, fp.increment(row, F, N, 7));
            assertEquals(1, LostReplies.lost(lossy), "the increment's write applied and its reply was lost");
            assertEquals(7, Bytes.toLong(fp.get(new Get(row)).result().getValue(F, N)),
                    "HBase's re-send answered from the record instead of adding again");
        } finally {
            LostReplies.disarm(lossy);
        }
    }

    @Test
    void aClientWhoseTimeoutTheRecordsDoNotCoverIsRefused() throws Exception {
        TableName shortLived = env.createTable("short-records", EnumSet.of(TableFeature.FAST_PATH),
                Map.of(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.key(), "90000"));
        byte[] row = Bytes.toBytes("timeout");
        TidemarkConfig patient = new TidemarkConfig(new org.apache.hadoop.conf.Configuration(false));
        patient.set(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS, "40000");
        try (FastPathTable fp = FastPathTable.builder(TestCluster.connection(), shortLived).transactionManager(env.tm)
                .config(patient).build()) {
            DoNotRetryIOException e = assertThrows(DoNotRetryIOException.class,
                    () -> fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("x"))));
            assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS.key())
                    && e.getMessage().contains("30000 ms"), e.getMessage());
        }
        TidemarkConfig quick = new TidemarkConfig(new org.apache.hadoop.conf.Configuration(false));
        quick.set(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS, "30000");
        try (FastPathTable fp = FastPathTable.builder(TestCluster.connection(), shortLived).transactionManager(env.tm)
                .config(quick).build()) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("x")));
        }
    }

    /** Whether {@code operation} (the first argument of a Table method) is a fast-path write. */
    static boolean isFastPathWrite(Object operation) {
        return operation instanceof Get && FastPathRequest.isFastPathWrite((Get) operation);
    }

    private static long counter(byte[] row) throws IOException {
        return Bytes.toLong(value(row, N));
    }

    private static byte[] value(byte[] row) throws IOException {
        return value(row, Q);
    }

    private static byte[] value(byte[] row, byte[] qualifier) throws IOException {
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            return t.get(tx, new Get(row)).getValue(F, qualifier);
        } finally {
            env.tm.commit(tx);
        }
    }
}
