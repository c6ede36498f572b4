package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.TestCluster;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tidemark.testing.TestCluster.F;

/**
 * Measurements for the fast path (a benchmark, not a test: it asserts nothing and is not picked up by the default
 * test run). Run it with
 * {@code mvn -B -o -q -pl integration-tests -am verify -Dtest=FastPathBenchmark -Dsurefire.failIfNoSpecifiedTests=false}
 * and read integration-tests/target/surefire-reports/io.tidemark.coprocessor.fastpath.FastPathBenchmark-output.txt.
 *
 * <ol>
 *   <li>Latency p50/p99, one client thread, same run: fast-path read / write / read-modify-write against raw HBase
 *       get / put / checkAndMutate and against a generic Tidemark transaction doing the same.</li>
 *   <li>Aborts of generic transactions caused by fast-path writes, per-row rule vs the paper's region-wide clock.</li>
 * </ol>
 */
class FastPathBenchmark {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] N = Bytes.toBytes("n");
    private static final int KEYS = 1000;
    private static final int WARMUP = 300;
    private static final int OPS = Integer.getInteger("fastpath.bench.ops", 2000);
    private static final byte[] VALUE = new byte[1024];

    private enum Op {
        RAW_GET, FAST_READ, GENERIC_READ, RAW_PUT, FAST_WRITE, GENERIC_WRITE, RAW_CHECK_AND_MUTATE, FAST_RMW,
        FAST_INCREMENT, GENERIC_RMW
    }

    @Test
    void measure() throws Exception {
        new Random(7).nextBytes(VALUE);
        try (TestCluster env = TestCluster.start("fpbench", CommitMode.LOW_LATENCY)) {
            latencies(env);
            falseAborts(env, "row", false);
            falseAborts(env, "region", false);
            falseAborts(env, "row", true);
            falseAborts(env, "region", true);
        }
    }

    private void latencies(TestCluster env) throws Exception {
        TableName fastTable = env.createTable("latency", EnumSet.of(TableFeature.FAST_PATH));
        TableName rawTable = TableName.valueOf("fpbench_raw");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            if (!admin.tableExists(rawTable)) {
                admin.createTable(TableDescriptorBuilder.newBuilder(rawTable)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
            }
        }
        Map<Op, Histogram> histograms = new EnumMap<>(Op.class);
        for (Op op : Op.values()) {
            histograms.put(op, new Histogram(3));
        }
        try (Table raw = TestCluster.connection().getTable(rawTable);
                FastPathTable fp = env.fastPath(fastTable);
                TTable tt = new TTable(TestCluster.connection(), fastTable)) {
            for (int i = 0; i < KEYS; i++) {
                raw.put(new Put(key(i)).addColumn(F, Q, VALUE).addColumn(F, N, Bytes.toBytes(0L)));
                fp.put(new Put(key(i)).addColumn(F, Q, VALUE).addColumn(F, N, Bytes.toBytes(0L)));
            }
            // Rounds interleave the kinds, so all of them see the same cluster state (memstore size, GC, ...).
            for (int i = 0; i < WARMUP + OPS; i++) {
                boolean record = i >= WARMUP;
                byte[] row = key(ThreadLocalRandom.current().nextInt(KEYS));
                for (Op op : Op.values()) {
                    long start = System.nanoTime();
                    run(op, row, env, raw, fp, tt);
                    if (record) {
                        histograms.get(op).recordValue((System.nanoTime() - start) / 1000);
                    }
                }
            }
        }
        System.out.printf("latency, one client, %d ops each after %d warm-up, 1 KB values, %d keys (microseconds)%n",
                OPS, WARMUP, KEYS);
        for (Op op : Op.values()) {
            Histogram h = histograms.get(op);
            System.out.printf("  %-22s p50 %6d  p99 %6d  mean %8.1f%n", op, h.getValueAtPercentile(50),
                    h.getValueAtPercentile(99), h.getMean());
        }
        ratio(histograms, Op.FAST_WRITE, Op.RAW_PUT);
        ratio(histograms, Op.GENERIC_WRITE, Op.FAST_WRITE);
        ratio(histograms, Op.FAST_READ, Op.RAW_GET);
        ratio(histograms, Op.GENERIC_READ, Op.FAST_READ);
        ratio(histograms, Op.FAST_RMW, Op.RAW_CHECK_AND_MUTATE);
        ratio(histograms, Op.GENERIC_RMW, Op.FAST_RMW);
    }

    private static void ratio(Map<Op, Histogram> h, Op a, Op b) {
        System.out.printf("  %s / %s: p50 %.2fx  p99 %.2fx%n", a, b,
                (double) h.get(a).getValueAtPercentile(50) / h.get(b).getValueAtPercentile(50),
                (double) h.get(a).getValueAtPercentile(99) / h.get(b).getValueAtPercentile(99));
    }

    private static void run(Op op, byte[] row, TestCluster env, Table raw, FastPathTable fp, TTable tt)
            throws Exception {
        switch (op) {
            case RAW_GET:
                raw.get(new Get(row).addColumn(F, Q));
                break;
            case FAST_READ:
                fp.get(new Get(row).addColumn(F, Q));
                break;
            case GENERIC_READ: {
                Transaction tx = env.tm.begin();
                tt.get(tx, new Get(row).addColumn(F, Q));
                env.tm.commit(tx);
                break;
            }
            case RAW_PUT:
                raw.put(new Put(row).addColumn(F, Q, VALUE));
                break;
            case FAST_WRITE:
                fp.put(new Put(row).addColumn(F, Q, VALUE));
                break;
            case GENERIC_WRITE: {
                Transaction tx = env.tm.begin();
                tt.put(tx, new Put(row).addColumn(F, Q, VALUE));
                env.tm.commit(tx);
                break;
            }
            case RAW_CHECK_AND_MUTATE: {
                byte[] current = raw.get(new Get(row).addColumn(F, N)).getValue(F, N);
                raw.checkAndMutate(CheckAndMutate.newBuilder(row).ifEquals(F, N, current)
                        .build(new Put(row).addColumn(F, N, Bytes.toBytes(Bytes.toLong(current) + 1))));
                break;
            }
            case FAST_RMW: {
                VersionedResult read = fp.getForUpdate(new Get(row).addColumn(F, N));
                long n = Bytes.toLong(read.result().getValue(F, N));
                fp.putIfUnchanged(new Put(row).addColumn(F, N, Bytes.toBytes(n + 1)), read.version());
                break;
            }
            case FAST_INCREMENT:
                fp.increment(row, F, N, 1);
                break;
            case GENERIC_RMW: {
                Transaction tx = env.tm.begin();
                long n = Bytes.toLong(tt.get(tx, new Get(row).addColumn(F, N)).getValue(F, N));
                tt.put(tx, new Put(row).addColumn(F, N, Bytes.toBytes(n + 1)));
                env.tm.commit(tx);
                break;
            }
            default:
                throw new IllegalStateException(op.name());
        }
    }

    /**
     * Two threads run generic transfers between account rows while two threads run fast-path increments in the same
     * region: on other rows ({@code sameRows} false: every abort they cause is false) or on another column of the
     * same rows ({@code sameRows} true: a per-row abort is a row-level conflict, one a cell-level check would avoid).
     */
    private void falseAborts(TestCluster env, String rule, boolean sameRows) throws Exception {
        TableName table = env.createTable("aborts_" + rule, EnumSet.of(TableFeature.FAST_PATH), Map.of(TidemarkConfig.FASTPATH_WRITE_CHECK.key(), rule));
        int accounts = 20;
        int txPerThread = Integer.getInteger("fastpath.bench.transfers", 150);
        try (FastPathTable fp = env.fastPath(table)) {
            for (int i = 0; i < accounts; i++) {
                fp.put(new Put(account(i)).addColumn(F, Q, Bytes.toBytes(100L)));
            }
        }
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<long[]>> generic = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            generic.add(pool.submit(() -> transfers(env, table, accounts, txPerThread)));
        }
        List<Future<Long>> fast = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            fast.add(pool.submit(() -> {
                long writes = 0;
                try (FastPathTable fp = env.fastPath(table)) {
                    while (running.get()) {
                        int i = ThreadLocalRandom.current().nextInt(accounts);
                        byte[] row = sameRows ? account(i) : Bytes.toBytes("other-" + i);
                        try {
                            fp.increment(row, F, N, 1);
                            writes++;
                        } catch (FastPathConflictException e) {
                            // A generic transfer has an undecided write on the row: skip it.
                        }
                    }
                }
                return writes;
            }));
        }
        long committed = 0;
        long conflicts = 0;
        long fastPathAborts = 0;
        long other = 0;
        for (Future<long[]> f : generic) {
            long[] r = f.get(300, TimeUnit.SECONDS);
            committed += r[0];
            conflicts += r[1];
            fastPathAborts += r[2];
            other += r[3];
        }
        running.set(false);
        long fastWrites = 0;
        for (Future<Long> f : fast) {
            fastWrites += f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        long attempts = committed + conflicts + fastPathAborts + other;
        System.out.printf("generic aborts, rule=%-6s fast-path writes on %-22s: %4d generic tx, %4d committed,"
                + " %4d TSO conflicts, %4d aborted by a fast-path write (%.1f%%), %d other; %d fast-path writes%n",
                rule, sameRows ? "the same rows (col n)" : "other rows", attempts, committed, conflicts,
                fastPathAborts, 100.0 * fastPathAborts / attempts, other, fastWrites);
    }

    private long[] transfers(TestCluster env, TableName table, int accounts, int count) throws Exception {
        long[] outcome = new long[4];
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            for (int i = 0; i < count; i++) {
                int from = ThreadLocalRandom.current().nextInt(accounts);
                int to = (from + 1 + ThreadLocalRandom.current().nextInt(accounts - 1)) % accounts;
                Transaction tx = env.tm.begin();
                try {
                    long a = Bytes.toLong(t.get(tx, new Get(account(from)).addColumn(F, Q)).getValue(F, Q));
                    long b = Bytes.toLong(t.get(tx, new Get(account(to)).addColumn(F, Q)).getValue(F, Q));
                    t.put(tx, new Put(account(from)).addColumn(F, Q, Bytes.toBytes(a - 1)));
                    t.put(tx, new Put(account(to)).addColumn(F, Q, Bytes.toBytes(b + 1)));
                    env.tm.commit(tx);
                    outcome[0]++;
                } catch (TransactionAbortedException e) {
                    if (e.reason() == TransactionAbortedException.Reason.CONFLICT) {
                        outcome[1]++;
                    } else if (e.reason() == TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE) {
                        outcome[2]++;
                    } else {
                        outcome[3]++;
                    }
                }
            }
        }
        return outcome;
    }

    private static byte[] key(int i) {
        return Bytes.toBytes(String.format("key-%05d", i));
    }

    private static byte[] account(int i) {
        return Bytes.toBytes(String.format("acct-%03d", i));
    }
}
