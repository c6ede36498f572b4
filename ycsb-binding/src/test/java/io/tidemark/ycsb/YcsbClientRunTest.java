package io.tidemark.ycsb;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import site.ycsb.DBException;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shortened YCSB load + run through YCSB's own Client (child JVM) against the mini-cluster and a real TSO: what a
 * user runs, with a few hundred operations instead of millions.
 */
@ExtendWith(SharedTestClusters.class)
class YcsbClientRunTest {

    private static final int RECORDS = 200;
    private static final int OPERATIONS = 300;
    private static final int FIELD_LENGTH = 100;
    private static final Path WORK_DIR = Path.of("target", "ycsb-runs");
    /** The workload files shipped in ycsb-binding/workloads (the tests run in the module's directory). */
    private static final Path WORKLOAD_A = Path.of("workloads", "workloada");
    private static final Path PAPER = Path.of("workloads", "paper");

    private static TestCluster fixture;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        fixture = shared;
    }

    @Test
    void rawModeLoadsAndRunsWorkloadAAndTheTransactionalWorkloadAsPlainOperations() throws Exception {
        Properties p = common(BindingMode.RAW, "ycsb_raw");
        YcsbRun load = YcsbRun.run(true, WORKLOAD_A, p, WORK_DIR);
        assertEquals(RECORDS, load.count("INSERT", "Return=OK"), load.describe());
        assertNoErrors(load);
        assertEquals(RECORDS, countRawRows("ycsb_raw"));

        YcsbRun a = YcsbRun.run(false, WORKLOAD_A, runOf(p), WORK_DIR);
        assertEquals(OPERATIONS, a.count("READ", "Return=OK") + a.count("UPDATE", "Return=OK"), a.describe());
        assertNoErrors(a);

        Properties fixedSize = runOf(p);
        fixedSize.setProperty("tidemark.txsize", "5");
        YcsbRun tx = YcsbRun.run(false, PAPER, fixedSize, WORK_DIR);
        assertNoErrors(tx);
        assertEquals(OPERATIONS, tx.count("TX-5", "Operations"), tx.describe());
        assertEquals(5L * OPERATIONS, tx.count("READ", "Return=OK") + tx.count("UPDATE", "Return=OK"),
                tx.describe());
    }

    @Test
    void genericModeLoadsAndRunsWorkloadAAndEveryCoreOperation() throws Exception {
        String table = "ycsb_generic_a";
        Properties p = common(BindingMode.GENERIC, table);
        YcsbRun load = YcsbRun.run(true, WORKLOAD_A, p, WORK_DIR);
        assertEquals(RECORDS, load.count("INSERT", "Return=OK"), load.describe());
        assertNoErrors(load);
        assertEquals(RECORDS, countCommittedRows(table));

        YcsbRun a = YcsbRun.run(false, WORKLOAD_A, runOf(p), WORK_DIR);
        assertEquals(OPERATIONS, outcomes(a, "READ") + outcomes(a, "UPDATE"), a.describe());
        assertNoErrors(a);

        Properties mix = runOf(p);
        mix.setProperty("readproportion", "0.2");
        mix.setProperty("updateproportion", "0.2");
        mix.setProperty("scanproportion", "0.2");
        mix.setProperty("insertproportion", "0.2");
        mix.setProperty("readmodifywriteproportion", "0.2");
        mix.setProperty("maxscanlength", "10");
        YcsbRun all = YcsbRun.run(false, WORKLOAD_A, mix, WORK_DIR);
        assertNoErrors(all, all.count("INSERT", "Return=ABORTED") > 0);
        for (String op : new String[] {"READ", "UPDATE", "SCAN", "INSERT", "READ-MODIFY-WRITE"}) {
            assertTrue(all.report().containsKey(op), op + " never ran: " + all.describe());
        }
        long inserted = all.count("INSERT", "Return=OK");
        assertTrue(inserted > 0, all.describe());
        assertEquals(RECORDS + inserted, countCommittedRows(table));
    }

    /**
     * In fastpath mode, the transactions of one operation run on the fast path and are reported all the same; those of
     * two to ten operations run as generic transactions, so this one run covers both ways a transaction can run (the
     * generic mode differs only in sending one-operation transactions the generic way too).
     */
    @Test
    void theTransactionalWorkloadRunsWholeTransactionsAndReportsThemBySize() throws Exception {
        String table = "ycsb_" + BindingMode.FASTPATH.propertyValue() + "_tx";
        Properties p = common(BindingMode.FASTPATH, table);
        loadInProcess(p);

        YcsbRun run = YcsbRun.run(false, PAPER, runOf(p), WORK_DIR);
        assertNoErrors(run);
        long committed = run.count(TransactionalWorkload.ALL, "Return=OK");
        long aborted = run.count(TransactionalWorkload.ALL, "Return=ABORTED");
        assertEquals(OPERATIONS, committed + aborted, run.describe());
        assertEquals(committed, run.count(TransactionalWorkload.ALL, "Operations"), run.describe());
        assertEquals(aborted, run.count(TransactionalWorkload.ABORTED, "Operations"), run.describe());
        long bySize = 0;
        for (int size = 1; size <= TransactionSizes.ZIPF_MAX; size++) {
            bySize += run.count("TX-" + size, "Operations");
        }
        assertEquals(committed, bySize, run.describe());
        assertTrue(run.count("TX-1", "Operations") > run.count("TX-10", "Operations"), run.describe());
        // Each transaction ran 1 to 10 reads and updates, each measured by YCSB itself.
        long operations = outcomes(run, "READ") + outcomes(run, "UPDATE");
        assertTrue(operations >= OPERATIONS && operations <= 10L * OPERATIONS, run.describe());
        assertEquals(RECORDS, countCommittedRows(table));
    }

    /** Loads with YCSB's own loader in this JVM: the other tests already load through YCSB's Client. */
    private static void loadInProcess(Properties p) throws DBException, WorkloadException {
        Measurements.setProperties(p);
        CoreWorkload loader = new CoreWorkload();
        loader.init(p);
        TidemarkClient client = new TidemarkClient();
        client.setProperties(p);
        client.init();
        try {
            for (int i = 0; i < RECORDS; i++) {
                assertTrue(loader.doInsert(client, null), "insert " + i + " failed");
            }
        } finally {
            client.cleanup();
        }
    }

    private static Properties common(BindingMode mode, String table) {
        Properties p = YcsbProperties.of(fixture, mode, table);
        p.setProperty("recordcount", String.valueOf(RECORDS));
        p.setProperty("fieldcount", "2");
        p.setProperty("fieldlength", String.valueOf(FIELD_LENGTH));
        p.setProperty("threadcount", "4");
        return p;
    }

    /** The run phase: a few hundred operations instead of the file's thousands. */
    private static Properties runOf(Properties common) {
        Properties p = new Properties();
        p.putAll(common);
        p.setProperty("operationcount", String.valueOf(OPERATIONS));
        return p;
    }

    /** The run finished, and no operation failed other than by a transaction abort. */
    private static void assertNoErrors(YcsbRun run) {
        assertNoErrors(run, false);
    }

    /**
     * As {@link #assertNoErrors(YcsbRun)}, but reads may find no record when {@code missingRecordsExpected}: YCSB
     * acknowledges a key even when its insert aborted (a concurrent scan may invalidate an insert in flight).
     */
    private static void assertNoErrors(YcsbRun run, boolean missingRecordsExpected) {
        assertTrue(run.count("OVERALL", "RunTime(ms)") > 0, run.describe());
        for (Map.Entry<String, Map<String, String>> section : run.report().entrySet()) {
            assertTrue(missingRecordsExpected || !section.getKey().endsWith("-FAILED"),
                    "failures in " + section.getKey() + ": " + run.describe());
            for (String metric : section.getValue().keySet()) {
                assertTrue(!metric.startsWith("Return=") || metric.equals("Return=OK")
                        || metric.equals("Return=ABORTED") || (missingRecordsExpected
                        && metric.equals("Return=NOT_FOUND")), section.getKey() + " " + metric + ": "
                        + run.describe());
            }
        }
    }

    private static long outcomes(YcsbRun run, String op) {
        return run.count(op, "Return=OK") + run.count(op, "Return=ABORTED");
    }

    private static long countRawRows(String table) throws IOException {
        long rows = 0;
        try (Table t = TestCluster.connection().getTable(TableName.valueOf(table));
             ResultScanner scanner = t.getScanner(new Scan())) {
            for (Result row : scanner) {
                assertEquals(FIELD_LENGTH, row.getValue(Bytes.toBytes("family"), Bytes.toBytes("field0")).length);
                rows++;
            }
        }
        return rows;
    }

    /** The rows a new transaction sees: what the binding committed. */
    private static long countCommittedRows(String table) throws IOException {
        long rows = 0;
        try (TransactionManager tm = TransactionManager.builder(TestCluster.connection()).config(fixture.config)
                .build();
             TTable t = new TTable(TestCluster.connection(), TableName.valueOf(table))) {
            Transaction tx = tm.begin();
            try (ResultScanner scanner = t.getScanner(tx, new Scan())) {
                for (Result row : scanner) {
                    assertEquals(FIELD_LENGTH, row.getValue(Bytes.toBytes("family"), Bytes.toBytes("field0")).length);
                    rows++;
                }
            }
            tm.commit(tx);
        }
        return rows;
    }
}
