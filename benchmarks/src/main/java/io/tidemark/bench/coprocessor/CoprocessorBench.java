package io.tidemark.bench.coprocessor;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedHBaseSettings;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Measures what the coprocessors buy (numbers for the closing note of issue 3; not a test):
 * <ol>
 *   <li>scan throughput of a table of {@code rows} rows with 10 committed versions per cell: server-side snapshot
 *       resolution vs client-side resolution vs a plain HBase scan of the same cells;</li>
 *   <li>store size before and after a major compaction when every key is overwritten 20 times.</li>
 * </ol>
 * Runs an embedded HBase (one region server) and a TSO in this JVM. Usage: {@code CoprocessorBench [rows]}.
 */
public final class CoprocessorBench {

    private static final byte[] F = Bytes.toBytes("f");
    private static final byte[] Q = Bytes.toBytes("q");
    private static final int VERSIONS = 10;
    private static final int OVERWRITES = 20;
    private static final int SCAN_ROUNDS = 3;
    private static final int ROWS_PER_PUT = 5000;

    private CoprocessorBench() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf);
        HBaseTestingUtility hbase = new HBaseTestingUtility(conf);
        hbase.startMiniZKCluster();
        hbase.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_HTTP_PORT, "-1");
        // A small conflict map moves the low watermark along with the workload, as a busy TSO's would.
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "4096");
        config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "50");
        Connection connection = hbase.getConnection();
        try (TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection).build()) {
            tso.start();
            config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
            try (TransactionManager tm = TransactionManager.builder(connection).config(config).build()) {
                scanThroughput(connection, config, tm, rows);
                storeSizeAfterCompaction(hbase, connection, config, tm, rows / 5);
            }
        } finally {
            hbase.shutdownMiniCluster();
        }
    }

    private static void scanThroughput(Connection connection, TidemarkConfig config, TransactionManager tm,
            int rows) throws IOException {
        TableName serverSide = TableName.valueOf("bench_server_side");
        TableName clientSide = TableName.valueOf("bench_client_side");
        new TidemarkAdmin(connection, config).create(serverSide, "f");
        ScratchTables.recreate(connection, clientSide, Bytes.toString(F), config);
        long loadStart = System.nanoTime();
        try (TTable server = new TTable(connection, serverSide); TTable client = new TTable(connection, clientSide)) {
            // Each version of every row is written by its own committed transaction, to both tables.
            for (int v = 0; v < VERSIONS; v++) {
                Transaction tx = tm.begin();
                for (int start = 0; start < rows; start += ROWS_PER_PUT) {
                    List<Put> puts = new ArrayList<>(ROWS_PER_PUT);
                    for (int r = start; r < Math.min(rows, start + ROWS_PER_PUT); r++) {
                        puts.add(new Put(row(r)).addColumn(F, Q, value(r, v)));
                    }
                    server.put(tx, puts);
                    client.put(tx, puts);
                }
                tm.commit(tx);
            }
        }
        System.out.printf("loaded %,d rows x %d versions into two tables in %.1f s%n", rows, VERSIONS,
                (System.nanoTime() - loadStart) / 1e9);
        try (Admin admin = connection.getAdmin()) {
            admin.flush(serverSide);
            admin.flush(clientSide);
        }
        double[] serverRate = new double[SCAN_ROUNDS];
        double[] clientRate = new double[SCAN_ROUNDS];
        double[] rawRate = new double[SCAN_ROUNDS];
        long[] bytes = new long[3];
        for (int round = 0; round < SCAN_ROUNDS; round++) {
            serverRate[round] = transactionalScan(connection, tm, serverSide, rows, bytes, 0);
            clientRate[round] = transactionalScan(connection, tm, clientSide, rows, bytes, 1);
            rawRate[round] = rawScan(connection, clientSide, rows, bytes, 2);
        }
        System.out.printf("scan %,d rows, %d versions per cell (rows/s, median of %d): server-side %,.0f;"
                + " client-side %,.0f; raw HBase scan %,.0f%n", rows, VERSIONS, SCAN_ROUNDS, median(serverRate),
                median(clientRate), median(rawRate));
        System.out.printf("bytes sent by the region server per scan: server-side %,d; client-side %,d; raw HBase"
                + " scan %,d%n", bytes[0], bytes[1], bytes[2]);
    }

    private static double transactionalScan(Connection connection, TransactionManager tm, TableName tableName,
            int expectedRows, long[] bytes, int slot) throws IOException {
        Transaction reader = tm.begin();
        long start = System.nanoTime();
        int rows = 0;
        try (TTable table = new TTable(connection, tableName);
             ResultScanner scanner = table.getScanner(reader, new Scan().setCaching(1000)
                     .setScanMetricsEnabled(true))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                rows++;
            }
            bytes[slot] = scanner.getScanMetrics().countOfBytesInResults.get();
        }
        double rate = rows / ((System.nanoTime() - start) / 1e9);
        tm.rollback(reader);
        check(rows, expectedRows, tableName);
        return rate;
    }

    /** What a non-transactional application reads: the newest version of every stored column. */
    private static double rawScan(Connection connection, TableName tableName, int expectedRows, long[] bytes,
            int slot) throws IOException {
        long start = System.nanoTime();
        int rows = 0;
        try (Table table = connection.getTable(tableName);
             ResultScanner scanner = table.getScanner(new Scan().setCaching(1000).setScanMetricsEnabled(true))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                rows++;
            }
            bytes[slot] = scanner.getScanMetrics().countOfBytesInResults.get();
        }
        double rate = rows / ((System.nanoTime() - start) / 1e9);
        check(rows, expectedRows, tableName);
        return rate;
    }

    private static void storeSizeAfterCompaction(HBaseTestingUtility hbase, Connection connection,
            TidemarkConfig config, TransactionManager tm, int keys) throws Exception {
        TableName tableName = TableName.valueOf("bench_overwrites");
        new TidemarkAdmin(connection, config).create(tableName, "f");
        int paddingRows = 0;
        try (TTable table = new TTable(connection, tableName)) {
            for (int v = 0; v < OVERWRITES; v++) {
                Transaction tx = tm.begin();
                List<Put> puts = new ArrayList<>(keys);
                for (int k = 0; k < keys; k++) {
                    puts.add(new Put(row(k)).addColumn(F, Q, value(k, v)));
                }
                table.put(tx, puts);
                tm.commit(tx);
            }
            // Later transactions push the low watermark past the overwrites (the conflict map evicts them).
            CommitTable commitTable = new HBaseCommitTable(connection, new CommitTableSettings(config));
            Transaction last = tm.begin();
            tm.rollback(last);
            for (int i = 0; commitTable.readLowWatermark() < last.startTimestamp(); i++) {
                Transaction tx = tm.begin();
                List<Put> puts = new ArrayList<>(1000);
                for (int k = 0; k < 1000; k++) {
                    puts.add(new Put(Bytes.toBytes("pad" + i + "-" + k)).addColumn(F, Q, Bytes.toBytes(k)));
                }
                table.put(tx, puts);
                tm.commit(tx);
                paddingRows += puts.size();
                Thread.sleep(60);
            }
        }
        HRegion region = hbase.getMiniHBaseCluster().getRegions(tableName).get(0);
        region.flush(true);
        HStore store = region.getStore(F);
        long before = store.getStorefilesSize();
        long cellsBefore = storedCells(connection, tableName);
        region.compact(true);
        long after = store.getStorefilesSize();
        long cellsAfter = storedCells(connection, tableName);
        System.out.printf("store of %,d keys overwritten %d times (+%,d rows written once to move the low"
                + " watermark): %,d bytes / %,d cells before the major compaction, %,d bytes / %,d cells after"
                + " (%.1f%% of the size)%n", keys, OVERWRITES, paddingRows, before, cellsBefore, after, cellsAfter,
                100.0 * after / before);
    }

    private static long storedCells(Connection connection, TableName tableName) throws IOException {
        long cells = 0;
        try (Table table = connection.getTable(tableName);
             ResultScanner scanner = table.getScanner(new Scan().setRaw(true).readAllVersions().setCaching(1000))) {
            for (Result r = scanner.next(); r != null; r = scanner.next()) {
                cells += r.rawCells().length;
            }
        }
        return cells;
    }

    private static void check(int rows, int expected, TableName tableName) {
        if (rows != expected) {
            throw new IllegalStateException(tableName + " returned " + rows + " rows, expected " + expected);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static byte[] row(int r) {
        return Bytes.toBytes(String.format("row%08d", r));
    }

    /** 100-byte values. */
    private static byte[] value(int row, int version) {
        byte[] v = new byte[100];
        Arrays.fill(v, (byte) ('a' + version % 26));
        Bytes.putInt(v, 0, row);
        return v;
    }
}
