package io.tidemark.coprocessor.compaction;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Writers commit, roll back and crash while the region is flushed and compacted over and over, with a TSO whose
 * tiny conflict map moves the low watermark forward all the time. Every committed value must stay readable, and
 * the garbage must go.
 */
class CompactionRaceTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final int KEYS = 20;
    private static final int WRITERS = 3;
    private static final long RUN_MS = 6000;

    @Test
    void committedDataSurvivesCompactionsRacingWithCommits() throws Exception {
        try (TestCluster cluster = TestCluster.start("gcrace", CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "16");
            config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
        })) {
            TableName tableName = cluster.createTransactionalTable("race");
            Map<String, TreeMap<Long, String>> committed = new ConcurrentHashMap<>();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            try {
                List<Future<Integer>> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    int id = w;
                    writers.add(pool.submit(() -> write(cluster.tm, tableName, id, stop, committed)));
                }
                HRegion region = SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(tableName).get(0);
                int compactions = 0;
                long deadline = System.currentTimeMillis() + RUN_MS;
                while (System.currentTimeMillis() < deadline) {
                    region.flush(true);
                    region.compact(compactions % 2 == 0);
                    compactions++;
                }
                stop.set(true);
                int commits = 0;
                for (Future<Integer> f : writers) {
                    commits += f.get(60, TimeUnit.SECONDS);
                }
                assertTrue(commits > 20 && compactions > 3, commits + " commits, " + compactions + " compactions");
                assertEquals(expected(committed), snapshot(cluster.tm, tableName), "every committed value survives");

                pushLowWatermarkPastEverything(cluster, tableName);
                region.flush(true);
                region.compact(true);
                assertEquals(expected(committed), snapshot(cluster.tm, tableName), "and after the last compaction");
                assertEquals(committed.size(), storedDataVersions(tableName),
                        "one version per key is left once the low watermark passed every writer");
            } finally {
                stop.set(true);
                pool.shutdownNow();
                TestCluster.drop(tableName);
            }
        }
    }

    /** Writes until stopped; returns how many transactions committed. */
    private static int write(TransactionManager tm, TableName tableName, int id, AtomicBoolean stop,
            Map<String, TreeMap<Long, String>> committed) throws IOException {
        Random random = new Random(id);
        int commits = 0;
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            for (int n = 0; !stop.get(); n++) {
                Transaction tx = tm.begin();
                String key = "k" + random.nextInt(KEYS);
                String value = "w" + id + "-" + n;
                table.put(tx, new Put(Bytes.toBytes(key)).addColumn(F, Q, Bytes.toBytes(value)));
                int fate = random.nextInt(10);
                if (fate == 0) {
                    tm.rollback(tx);
                    continue;
                }
                if (fate == 1) {
                    continue; // the client "crashed": its tentative version stays behind
                }
                try {
                    tm.commit(tx);
                } catch (TransactionAbortedException e) {
                    continue;
                } catch (Exception e) {
                    throw new IOException(e);
                }
                commits++;
                TreeMap<Long, String> versions = committed.computeIfAbsent(key, k -> new TreeMap<>());
                synchronized (versions) {
                    versions.put(tx.commitTimestamp(), value);
                }
            }
        }
        return commits;
    }

    /** Commits elsewhere until the TSO's conflict map has evicted every earlier commit. */
    private static void pushLowWatermarkPastEverything(TestCluster cluster, TableName tableName)
            throws Exception {
        Transaction after = cluster.tm.begin();
        cluster.tm.rollback(after);
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            for (int i = 0; cluster.commitTable.readLowWatermark() < after.startTimestamp(); i++) {
                assertTrue(i < 500, "the low watermark does not move");
                Transaction tx = cluster.tm.begin();
                for (int k = 0; k < 20; k++) {
                    table.put(tx, new Put(Bytes.toBytes("pad" + i + "-" + k)).addColumn(G, Q, Bytes.toBytes(k)));
                }
                cluster.tm.commit(tx);
                Thread.sleep(25);
            }
        }
    }

    private static Map<String, String> expected(Map<String, TreeMap<Long, String>> committed) {
        Map<String, String> latest = new TreeMap<>();
        committed.forEach((k, versions) -> latest.put(k, versions.lastEntry().getValue()));
        return latest;
    }

    private static Map<String, String> snapshot(TransactionManager tm, TableName tableName) throws IOException {
        Map<String, String> visible = new TreeMap<>();
        Transaction reader = tm.begin();
        try (TTable table = new TTable(TestCluster.connection(), tableName);
             ResultScanner rows = table.getScanner(reader, new Scan().addFamily(F))) {
            for (Result r : rows) {
                visible.put(Bytes.toString(r.getRow()), Bytes.toString(r.getValue(F, Q)));
            }
        }
        tm.rollback(reader);
        return visible;
    }

    private static int storedDataVersions(TableName tableName) throws IOException {
        int versions = 0;
        try (Table table = TestCluster.connection().getTable(tableName);
             ResultScanner rows = table.getScanner(new Scan().setRaw(true).readAllVersions())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    byte[] q = CellUtil.cloneQualifier(c);
                    if (CellUtil.matchingFamily(c, F) && !CellEncoding.isMetadataQualifier(q)
                            && c.getType() == Cell.Type.Put) {
                        versions++;
                    }
                }
            }
        }
        return versions;
    }
}
