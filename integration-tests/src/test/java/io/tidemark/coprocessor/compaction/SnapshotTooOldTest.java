package io.tidemark.coprocessor.compaction;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionState;
import io.tidemark.table.TableFeature;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.OwnTestCluster;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A read-only snapshot that falls below the low watermark and then meets a real major compaction (issue 8 item 5):
 * the compaction drops the versions it reads, so its reads must fail loudly instead of returning a bank of 1000 that
 * sums to 0. The low watermark rises the way it does in production, through evictions from the TSO's conflict map
 * (here 8 entries), and the TSO persists it. Both read paths: resolved by the region server, and by the client on a
 * table that has the compaction observer only.
 */
class SnapshotTooOldTest {

    private static final byte[] BALANCE = Bytes.toBytes("balance");
    private static final int ACCOUNTS = 10;
    private static final long INITIAL = 100;

    @RegisterExtension
    static final OwnTestCluster OWN = OwnTestCluster.of("too_old", CommitMode.LOW_LATENCY, config -> {
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
        config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
    });

    private static TestCluster cluster;

    @BeforeAll
    static void useOwnCluster(TestCluster own) {
        cluster = own;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anAuditBelowTheCollectedHorizonFailsInsteadOfSummingToZero(boolean serverSide) throws Exception {
        TableName name = bank(serverSide);
        try (TTable accounts = new TTable(TestCluster.connection(), name)) {
            Transaction audit = cluster.tm.begin();
            Transaction lookup = cluster.tm.begin();
            long lastTransfer = rewriteEveryAccount(accounts);
            raiseLowWatermarkAbove(lastTransfer);
            compact(name);

            TransactionAbortedException scanRefused = assertThrows(TransactionAbortedException.class,
                    () -> sum(accounts, audit, new Scan()));
            assertEquals(TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, scanRefused.reason(),
                    scanRefused.getMessage());
            assertTrue(scanRefused.getMessage().contains("retry with a new transaction"), scanRefused.getMessage());
            assertEquals(TransactionState.ROLLED_BACK, audit.state());
            TransactionAbortedException getRefused = assertThrows(TransactionAbortedException.class,
                    () -> accounts.get(lookup, new Get(account(0))));
            assertEquals(TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, getRefused.reason());

            Transaction fresh = cluster.tm.begin();
            assertEquals(ACCOUNTS * INITIAL, sum(accounts, fresh, new Scan()), "a snapshot above the horizon");
            cluster.tm.commit(fresh);
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCompactionFinishingInTheMiddleOfAScanIsNoticed(boolean serverSide) throws Exception {
        TableName name = bank(serverSide);
        try (TTable accounts = new TTable(TestCluster.connection(), name)) {
            // More crashed writers on each account than a read fetches at first: resolving an account takes a second
            // read of older versions, which after the compaction comes from the compacted files.
            for (int i = 0; i < ACCOUNTS; i++) {
                for (int crash = 0; crash < SnapshotQuery.VERSIONS_PER_READ; crash++) {
                    Transaction crashed = cluster.tm.begin();
                    accounts.put(crashed, new Put(account(i)).addColumn(F, BALANCE, Bytes.toBytes(-1L)));
                }
            }
            Transaction audit = cluster.tm.begin();
            try (ResultScanner scanner = accounts.getScanner(audit, new Scan().setCaching(1))) {
                Result first = scanner.next();
                assertNotNull(first);
                assertEquals(INITIAL, Bytes.toLong(first.getValue(F, BALANCE)));
                long lastTransfer = rewriteEveryAccount(accounts);
                raiseLowWatermarkAbove(lastTransfer);
                compact(name);
                TransactionAbortedException refused = assertThrows(TransactionAbortedException.class, () -> {
                    long seen = INITIAL;
                    for (Result r = scanner.next(); r != null; r = scanner.next()) {
                        seen += Bytes.toLong(r.getValue(F, BALANCE));
                    }
                    throw new AssertionError("the scan read on below the horizon; it saw a total of " + seen);
                });
                assertEquals(TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, refused.reason());
            }
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aReopenedRegionRefusesSnapshotsBelowThePersistedLowWatermark(boolean serverSide) throws Exception {
        TableName name = bank(serverSide);
        try (TTable accounts = new TTable(TestCluster.connection(), name)) {
            Transaction audit = cluster.tm.begin();
            assertEquals(INITIAL, Bytes.toLong(accounts.get(audit, new Get(account(0))).getValue(F, BALANCE)));
            long lastTransfer = rewriteEveryAccount(accounts);
            raiseLowWatermarkAbove(lastTransfer);
            compact(name);
            try (Admin admin = TestCluster.connection().getAdmin()) {
                admin.disableTable(name);
                admin.enableTable(name);
            }
            // The new incarnation of the region knows nothing of the compaction but the persisted low watermark.
            TransactionAbortedException refused = assertThrows(TransactionAbortedException.class,
                    () -> accounts.get(audit, new Get(account(1))));
            assertEquals(TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, refused.reason());
        } finally {
            TestCluster.drop(name);
        }
    }

    /**
     * A bank of {@value #ACCOUNTS} accounts of {@value #INITIAL}, on a table whose reads the region server resolves
     * (both coprocessors), or the client (the compaction observer only).
     */
    private static TableName bank(boolean serverSide) throws IOException {
        TableName name = serverSide ? cluster.createTable("server", TableFeature.DEFAULT)
                : cluster.createTable("client", EnumSet.of(TableFeature.COMPACTION_GC));
        try (TTable accounts = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            for (int i = 0; i < ACCOUNTS; i++) {
                accounts.put(tx, new Put(account(i)).addColumn(F, BALANCE, Bytes.toBytes(INITIAL)));
            }
            cluster.tm.commit(tx);
        }
        return name;
    }

    /** Moves money around so that every account gets a newer version; the total stays the same. */
    private static long rewriteEveryAccount(TTable accounts) throws IOException {
        long lastCommit = 0;
        for (int i = 0; i < ACCOUNTS; i += 2) {
            Transaction transfer = cluster.tm.begin();
            accounts.put(transfer, new Put(account(i)).addColumn(F, BALANCE, Bytes.toBytes(INITIAL - 7)));
            accounts.put(transfer, new Put(account(i + 1)).addColumn(F, BALANCE, Bytes.toBytes(INITIAL + 7)));
            cluster.tm.commit(transfer);
            lastCommit = transfer.commitTimestamp();
        }
        return lastCommit;
    }

    /** Commits writes of other cells until the TSO evicted everything up to {@code commit} and persisted that. */
    private static void raiseLowWatermarkAbove(long commit) throws Exception {
        TableName other = cluster.createTransactionalTable("other");
        try (TTable table = new TTable(TestCluster.connection(), other)) {
            for (int i = 0; cluster.commitTable.readLowWatermark() < commit; i++) {
                assertTrue(i < 10_000, "the low watermark never rose above " + commit);
                Transaction filler = cluster.tm.begin();
                table.put(filler, new Put(Bytes.toBytes("filler" + i)).addColumn(F, BALANCE, Bytes.toBytes(i)));
                cluster.tm.commit(filler);
                if (i > 50) {
                    Thread.sleep(20);
                }
            }
        } finally {
            TestCluster.drop(other);
        }
    }

    private static void compact(TableName name) throws IOException {
        List<HRegion> regions = SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(name);
        for (HRegion region : regions) {
            region.flush(true);
            region.compact(true);
        }
    }

    private static long sum(TTable accounts, Transaction tx, Scan scan) throws IOException {
        long total = 0;
        try (ResultScanner scanner = accounts.getScanner(tx, scan)) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                total += Bytes.toLong(r.getValue(F, BALANCE));
            }
        }
        if (total != ACCOUNTS * INITIAL) {
            throw new AssertionError("the bank of " + ACCOUNTS * INITIAL + " sums to " + total);
        }
        return total;
    }

    private static byte[] account(int i) {
        return Bytes.toBytes(String.format("acct%02d", i));
    }
}
