package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generic multi-row transfers and fast-path single-row updates run concurrently on the same accounts. Each account
 * row has two balances: generic transactions move money between rows' {@code a} balances, fast-path read-modify-writes
 * move money inside one row from {@code a} to {@code b}. A lost update on either side would change the total.
 */
@ExtendWith(SharedTestClusters.class)
class FastPathMixedWorkloadTest {

    private static final byte[] A = Bytes.toBytes("a");
    private static final byte[] B = Bytes.toBytes("b");
    private static final int ACCOUNTS = 6;
    private static final long INITIAL = 1000;
    private static final long TOTAL = ACCOUNTS * INITIAL;
    private static final int TRANSFERS_PER_THREAD = 60;

    private static TestCluster env;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster shared) throws Exception {
        env = shared;
        table = env.createTable("accounts", EnumSet.of(TableFeature.FAST_PATH));
    }

    @Test
    void totalHoldsInEverySnapshotAndAtTheEnd() throws Exception {
        try (FastPathTable fp = env.fastPath(table)) {
            for (int i = 0; i < ACCOUNTS; i++) {
                fp.put(new Put(account(i)).addColumn(F, A, Bytes.toBytes(INITIAL)).addColumn(F, B, Bytes.toBytes(0L)));
            }
        }
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger genericCommits = new AtomicInteger();
        AtomicInteger genericAborts = new AtomicInteger();
        AtomicInteger fastCommits = new AtomicInteger();
        AtomicInteger fastConflicts = new AtomicInteger();
        AtomicInteger audits = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            workers.add(pool.submit(() -> {
                genericTransfers(genericCommits, genericAborts);
                return null;
            }));
            workers.add(pool.submit(() -> {
                fastPathMoves(fastCommits, fastConflicts);
                return null;
            }));
        }
        Future<?> auditor = pool.submit(() -> {
            while (running.get()) {
                assertEquals(TOTAL, snapshotTotal(), "the total in a snapshot read during the run");
                audits.incrementAndGet();
            }
            return null;
        });
        for (Future<?> w : workers) {
            w.get(150, TimeUnit.SECONDS);
        }
        running.set(false);
        auditor.get(30, TimeUnit.SECONDS);
        pool.shutdown();

        assertEquals(TOTAL, snapshotTotal(), "the total at the end, generic snapshot");
        long fastPathTotal = 0;
        try (FastPathTable fp = env.fastPath(table)) {
            for (int i = 0; i < ACCOUNTS; i++) {
                Result r = fp.get(new Get(account(i))).result();
                fastPathTotal += Bytes.toLong(r.getValue(F, A)) + Bytes.toLong(r.getValue(F, B));
            }
        }
        assertEquals(TOTAL, fastPathTotal, "the total at the end, fast-path reads");
        assertTrue(genericCommits.get() > 0 && fastCommits.get() > 0, "both paths made progress: generic "
                + genericCommits + ", fast path " + fastCommits);
        assertTrue(audits.get() > 0);
        System.out.printf("mixed workload: generic %d committed / %d aborted, fast path %d committed / %d conflicts,"
                + " %d audits%n", genericCommits.get(), genericAborts.get(), fastCommits.get(), fastConflicts.get(),
                audits.get());
    }

    private void genericTransfers(AtomicInteger commits, AtomicInteger aborts) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                int from = random.nextInt(ACCOUNTS);
                int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + random.nextInt(10);
                Transaction tx = env.tm.begin();
                try {
                    long fromA = Bytes.toLong(t.get(tx, new Get(account(from)).addColumn(F, A)).getValue(F, A));
                    long toA = Bytes.toLong(t.get(tx, new Get(account(to)).addColumn(F, A)).getValue(F, A));
                    t.put(tx, new Put(account(from)).addColumn(F, A, Bytes.toBytes(fromA - amount)));
                    t.put(tx, new Put(account(to)).addColumn(F, A, Bytes.toBytes(toA + amount)));
                    env.tm.commit(tx);
                    commits.incrementAndGet();
                } catch (TransactionAbortedException e) {
                    aborts.incrementAndGet();
                }
            }
        }
    }

    private void fastPathMoves(AtomicInteger commits, AtomicInteger conflicts) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        try (FastPathTable fp = env.fastPath(table)) {
            for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                byte[] row = account(random.nextInt(ACCOUNTS));
                long amount = 1 + random.nextInt(10);
                try {
                    VersionedResult read = fp.getForUpdate(new Get(row));
                    long a = Bytes.toLong(read.result().getValue(F, A));
                    long b = Bytes.toLong(read.result().getValue(F, B));
                    // Alternate direction so balances stay bounded.
                    long move = (i % 2 == 0) ? amount : -amount;
                    fp.putIfUnchanged(new Put(row).addColumn(F, A, Bytes.toBytes(a - move))
                            .addColumn(F, B, Bytes.toBytes(b + move)), read.version());
                    commits.incrementAndGet();
                } catch (FastPathConflictException e) {
                    conflicts.incrementAndGet();
                }
            }
        }
    }

    /**
     * The total in one snapshot, read twice: both scans must see the same balances although fast-path writes commit
     * meanwhile (none may be minted below the snapshot once it has read the region).
     */
    private long snapshotTotal() throws Exception {
        Transaction tx = env.tm.begin();
        List<Long> first;
        List<Long> second;
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            first = balances(t, tx);
            second = balances(t, tx);
        }
        env.tm.commit(tx);
        assertEquals(first, second, "a snapshot read twice gives the same balances");
        assertEquals(2 * ACCOUNTS, first.size());
        return first.stream().mapToLong(Long::longValue).sum();
    }

    private static List<Long> balances(TTable t, Transaction tx) throws Exception {
        List<Long> balances = new ArrayList<>();
        try (ResultScanner scanner = t.getScanner(tx, new Scan().addFamily(F))) {
            for (Result r : scanner) {
                balances.add(Bytes.toLong(r.getValue(F, A)));
                balances.add(Bytes.toLong(r.getValue(F, B)));
            }
        }
        return balances;
    }

    private static byte[] account(int i) {
        return Bytes.toBytes(String.format("account-%03d", i));
    }
}
