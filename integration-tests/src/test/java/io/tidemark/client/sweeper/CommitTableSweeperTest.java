package io.tidemark.client.sweeper;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Many clients die mid-commit: after their commit record (no shadow cells) or before it (a reader invalidates
 * them). One sweep brings the commit table back to empty, and every committed value stays visible.
 */
class CommitTableSweeperTest {

    private static final int CLIENTS = 8;
    private static final int COMMITS_PER_CLIENT = 5;
    private static final int CRASHED_BEFORE_RECORD = 10;
    private static final byte[] Q = Bytes.toBytes("q");

    @Test
    void commitTableReturnsToEmptyAndCommittedDataStaysVisible() throws Exception {
        try (TestCluster cluster = TestCluster.start("sweep", CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "0");
            config.set(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, "0");
        })) {
            TableName tableName = cluster.createTransactionalTable("data");
            Map<String, String> committed = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    done.add(clients.submit(() -> {
                        commitThenDie(cluster, tableName, client, committed);
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                clients.shutdownNow();
            }
            Set<Long> crashed = crashBeforeRecordAndGetInvalidated(cluster, tableName);
            assertEquals(CLIENTS * COMMITS_PER_CLIENT + CRASHED_BEFORE_RECORD, records(cluster));

            SweepResult result = new CommitTableSweeper(TestCluster.connection(), cluster.config)
                    .sweepAll();

            assertEquals(CLIENTS * COMMITS_PER_CLIENT, result.completed(), result.toString());
            assertEquals(CRASHED_BEFORE_RECORD, result.rolledBack(), result.toString());
            assertEquals(0, records(cluster), "the commit table is empty again");
            assertEquals(new TreeMap<>(committed), visible(cluster.tm, tableName));
            assertStoredCellsAreClean(tableName, crashed);
        }
    }

    /** A client that commits and "dies" each time right after its commit record: no shadow cells. */
    private static void commitThenDie(TestCluster cluster, TableName tableName, int client,
            Map<String, String> committed) throws Exception {
        for (int n = 0; n < COMMITS_PER_CLIENT; n++) {
            try (TransactionManager dying = StagedFailures.withoutShadowCells(cluster.managerBuilder());
                 TTable table = new TTable(TestCluster.connection(), tableName)) {
                Transaction tx = dying.begin();
                String row = "c" + client + "-" + n;
                table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes("v" + row))
                        .addColumn(G, Q, Bytes.toBytes("w" + row)));
                dying.commit(tx);
                committed.put(row + "/f", "v" + row);
                committed.put(row + "/g", "w" + row);
            }
        }
    }

    /** Writers that die before their commit record; a reader then invalidates each of them. */
    private static Set<Long> crashBeforeRecordAndGetInvalidated(TestCluster cluster, TableName tableName)
            throws Exception {
        Set<Long> crashed = new HashSet<>();
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            for (int i = 0; i < CRASHED_BEFORE_RECORD; i++) {
                try (TransactionManager dying = cluster.managerBuilder().build()) {
                    Transaction tx = dying.begin();
                    table.put(tx, new Put(Bytes.toBytes("x" + i)).addColumn(F, Q, Bytes.toBytes("never")));
                    crashed.add(tx.startTimestamp());
                }
            }
            Transaction reader = cluster.tm.begin();
            for (int i = 0; i < CRASHED_BEFORE_RECORD; i++) {
                assertTrue(table.get(reader, new Get(Bytes.toBytes("x" + i))).isEmpty());
            }
            cluster.tm.rollback(reader);
        }
        for (long start : crashed) {
            assertTrue(cluster.commitTable.lookup(start).isInvalidated());
        }
        return crashed;
    }

    private static int records(TestCluster cluster) throws IOException {
        int records = 0;
        try (Table table = TestCluster.connection().getTable(cluster.commitTable.tableName());
             ResultScanner rows = table.getScanner(new Scan())) {
            for (Result r : rows) {
                if (!Bytes.equals(r.getRow(), CommitTableSchema.LOW_WATERMARK_ROW)) {
                    records++;
                }
            }
        }
        return records;
    }

    private static Map<String, String> visible(TransactionManager tm, TableName tableName) throws IOException {
        Map<String, String> values = new TreeMap<>();
        Transaction reader = tm.begin();
        try (TTable table = new TTable(TestCluster.connection(), tableName);
             ResultScanner rows = table.getScanner(reader, new Scan())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    values.put(Bytes.toString(CellUtil.cloneRow(c)) + "/" + Bytes.toString(CellUtil.cloneFamily(c)),
                            Bytes.toString(CellUtil.cloneValue(c)));
                }
            }
        }
        tm.rollback(reader);
        return values;
    }

    /** Every data cell has its shadow cell; nothing of the invalidated writers is left. */
    private static void assertStoredCellsAreClean(TableName tableName, Set<Long> crashed) throws IOException {
        try (Table table = TestCluster.connection().getTable(tableName);
             ResultScanner rows = table.getScanner(new Scan().readAllVersions())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    assertFalse(crashed.contains(c.getTimestamp()), "tentative cell of an invalidated writer: " + c);
                    byte[] q = CellUtil.cloneQualifier(c);
                    if (!CellEncoding.isMetadataQualifier(q)) {
                        byte[] f = CellUtil.cloneFamily(c);
                        assertTrue(r.getColumnCells(f, CellEncoding.shadowQualifier(q)).stream()
                                .anyMatch(s -> s.getTimestamp() == c.getTimestamp()), "no shadow cell for " + c);
                    }
                }
            }
        }
    }
}
