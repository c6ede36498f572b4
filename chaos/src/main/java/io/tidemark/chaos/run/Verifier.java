package io.tidemark.chaos.run;

import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.history.HistoryFiles;
import io.tidemark.chaos.history.HistoryLog;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Timing;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.workload.ChaosTable;
import io.tidemark.chaos.workload.FastPathOperations;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The final reads after a run, recorded like any client's (client names start with {@code verify}, which the checker
 * treats as "the final state"): one fresh transaction gets every row and scans the whole table, then a fast-path get
 * of every row. The checker compares them with the committed writes replayed in commit order. Run once as the
 * workload left the store, and once more after flush, major compaction and moving every region.
 */
final class Verifier {

    private static final int ATTEMPTS = 5;
    private static final long MOVE_TIMEOUT_SECONDS = 120;

    private final TransactionManager tm;
    private final Connection connection;
    private final TableName table;
    private final KeySpace keys;
    private final Path directory;

    Verifier(TransactionManager tm, Connection connection, TableName table, KeySpace keys, Path directory) {
        this.tm = tm;
        this.connection = connection;
        this.table = table;
        this.keys = keys;
        this.directory = directory;
    }

    /** Reads everything as client {@code client}, retrying while regions are still moving. */
    void readEverything(String client) throws IOException, InterruptedException {
        try (HistoryLog log = new HistoryLog(HistoryFiles.fileOf(directory, client), client);
             TTable tTable = new TTable(connection, table);
             FastPathTable fastPath = FastPathTable.builder(connection, table).transactionManager(tm).build()) {
            long seq = 0;
            for (int attempt = 1; ; attempt++) {
                try {
                    seq = readInOneTransaction(log, tTable, seq);
                    for (String row : keys.rows()) {
                        VersionedResult r = fastPath.get(new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY));
                        FastPathOperations.recordRowRead(log.fastPath(++seq, "get"), keys, row, r);
                    }
                    return;
                } catch (IOException e) {
                    if (attempt == ATTEMPTS) {
                        throw new IOException("the final reads failed " + ATTEMPTS + " times", e);
                    }
                    Thread.sleep(2000);
                }
            }
        }
    }

    private long readInOneTransaction(HistoryLog log, TTable tTable, long seq) throws IOException {
        long beginAsked = Timing.nowMicros();
        Transaction tx = tm.begin();
        HistoryLog.Recorder rec = log.generic(++seq, tx.startTimestamp(), beginAsked);
        try {
            for (String row : keys.rows()) {
                Result r = tTable.get(tx, new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY));
                for (Key key : keys.keysOf(row)) {
                    rec.read(key, ChaosTable.valueOf(keys, r, key));
                }
            }
            Map<Key, String> seen = new TreeMap<>();
            try (ResultScanner scanner = tTable.getScanner(tx, new Scan().addFamily(ChaosTable.FAMILY))) {
                for (Result r : scanner) {
                    for (Key key : keys.keysOf(new String(r.getRow(), java.nio.charset.StandardCharsets.UTF_8))) {
                        String value = ChaosTable.valueOf(keys, r, key);
                        if (value != null) {
                            seen.put(key, value);
                        }
                    }
                }
            }
            rec.scan(keys.rows().get(0), null, seen);
            tm.commit(tx);
            rec.told(Told.committed(tx.commitTimestamp()));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.FAILED, e.toString()));
            throw e;
        }
        return seq;
    }

    /**
     * Flushes and major-compacts the checked table (compaction garbage collection runs), then moves every region to
     * another region server, all moves at once (one admin per move: an HBase Admin is not thread-safe).
     */
    static void compactAndMoveEverything(ChaosHBase cluster, TableName table) throws IOException,
            InterruptedException {
        cluster.flushAndMajorCompact(table);
        List<ServerName> live = cluster.liveServers();
        List<CompletableFuture<Void>> moves = new ArrayList<>();
        ExecutorService movers = Executors.newCachedThreadPool();
        try (RegionLocator locator = cluster.connection().getRegionLocator(table)) {
            for (HRegionLocation location : locator.getAllRegionLocations()) {
                for (ServerName target : live) {
                    if (!target.equals(location.getServerName())) {
                        moves.add(CompletableFuture.runAsync(() -> move(cluster, location, target), movers));
                        break;
                    }
                }
            }
            CompletableFuture.allOf(moves.toArray(new CompletableFuture<?>[0])).get(MOVE_TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("moving the regions of " + table + " failed", e);
        } finally {
            movers.shutdownNow();
        }
        cluster.waitUntilSettled();
    }

    private static void move(ChaosHBase cluster, HRegionLocation location, ServerName target) {
        try (Admin admin = cluster.connection().getAdmin()) {
            admin.move(location.getRegion().getEncodedNameAsBytes(), target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
