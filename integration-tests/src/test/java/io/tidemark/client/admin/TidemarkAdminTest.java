package io.tidemark.client.admin;

import io.tidemark.client.TTable;
import io.tidemark.client.TableNotTransactionalException;
import io.tidemark.client.Transaction;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.coprocessor.TransactionalRegionObserver;
import io.tidemark.coprocessor.compaction.CompactionObserver;
import io.tidemark.coprocessor.fastpath.FastPathObserver;
import io.tidemark.coprocessor.load.LoadGuardObserver;
import io.tidemark.coprocessor.snapshot.SnapshotObserver;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.testing.InMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Creating, converting and checking transactional tables, and TTable refusing misconfigured ones. */
@ExtendWith(SharedTestClusters.class)
class TidemarkAdminTest {

    private static final byte[] Q = Bytes.toBytes("q");

    private static TestCluster cluster;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        cluster = shared;
    }

    @Test
    void coprocessorNamesAreTheRealClasses() {
        assertEquals(TransactionalRegionObserver.class.getName(), TransactionalTableLayout.TRANSACTIONAL_OBSERVER);
        assertEquals(SnapshotObserver.class.getName(), TransactionalTableLayout.SNAPSHOT_OBSERVER);
        assertEquals(CompactionObserver.class.getName(), TransactionalTableLayout.COMPACTION_OBSERVER);
        assertEquals(FastPathObserver.class.getName(), TransactionalTableLayout.FAST_PATH_OBSERVER);
        assertEquals(LoadGuardObserver.class.getName(), TransactionalTableLayout.LOAD_GUARD_OBSERVER);
    }

    @Test
    void createdTableIsFullyTransactional() throws IOException {
        TableName table = cluster.createTransactionalTable("created");
        try {
            assertEquals(List.of(), cluster.admin.check(table));
            TableDescriptor descriptor = descriptor(table);
            assertTrue(descriptor.hasCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER));
            assertEquals(TableFeature.DEFAULT, TableFeature.of(descriptor));
            assertEquals(List.of(), TransactionalTableLayout.legacyObservers(descriptor));
            for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
                assertEquals(Integer.MAX_VALUE, family.getMaxVersions());
                assertEquals(HConstants.FOREVER, family.getTimeToLive());
                assertTrue(TransactionalTableInspector.isTransactional(family));
            }
        } finally {
            TestCluster.drop(table);
        }
    }

    @Test
    void checkNamesEveryProblemAndEnableFixesThem() throws Exception {
        TableName table = cluster.newName("legacy");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(table).setColumnFamily(
                    ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(3).setTimeToLive(3600).build())
                    .build());
        }
        try {
            List<TableProblem> problems = cluster.admin.check(table);
            assertEquals(5, problems.size(), problems.toString());
            assertProblem(problems, TableProblem.Severity.BLOCKING, "VERSIONS => 2147483647");
            assertProblem(problems, TableProblem.Severity.BLOCKING, "TTL => 'FOREVER'");
            assertProblem(problems, TableProblem.Severity.BLOCKING, "'tidemark.transactional' => 'true'");
            assertProblem(problems, TableProblem.Severity.ADVISORY, TableFeature.SERVER_SIDE_SNAPSHOTS.name());
            assertProblem(problems, TableProblem.Severity.ADVISORY, TableFeature.COMPACTION_GC.name());

            try (TTable t = new TTable(TestCluster.connection(), table)) {
                Transaction tx = cluster.tm.begin();
                TableNotTransactionalException refused = assertThrows(TableNotTransactionalException.class,
                        () -> t.get(tx, new Get(Bytes.toBytes("r"))));
                assertTrue(refused.getMessage().contains("TTL => 'FOREVER'"), refused.getMessage());
                assertTrue(refused.getMessage().contains("VERSIONS => 2147483647"), refused.getMessage());
                assertTrue(refused.getMessage().contains("table enable"), refused.getMessage());
                cluster.tm.rollback(tx);
            }

            cluster.admin.enable(table, cluster.tm);
            assertEquals(List.of(), cluster.admin.check(table));
            try (TTable t = new TTable(TestCluster.connection(), table)) {
                Transaction writer = cluster.tm.begin();
                t.put(writer, new Put(Bytes.toBytes("r")).addColumn(F, Q, Bytes.toBytes("v")));
                cluster.tm.commit(writer);
                Transaction reader = cluster.tm.begin();
                // A Filter is accepted only on the server-side path: the converted table has the coprocessor.
                assertNotNull(t.getScanner(reader, new Scan().setFilter(new PrefixFilter(Bytes.toBytes("r"))))
                        .next());
                assertEquals("v", Bytes.toString(t.get(reader, new Get(Bytes.toBytes("r"))).getValue(F, Q)));
                cluster.tm.rollback(reader);
            }
        } finally {
            TestCluster.drop(table);
        }
    }

    @Test
    void aTableMadeAsTheReadmeSaysHasNoBlockingProblemAndHoldsTransactions() throws IOException {
        TableName table = cluster.newName("readme");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            // The README's "Table requirements" snippet, verbatim but for the names.
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F)
                            .setMaxVersions(Integer.MAX_VALUE)
                            .setValue("tidemark.transactional", "true")
                            .build())
                    .build());
        }
        try {
            List<TableProblem> problems = cluster.admin.check(table);
            assertTrue(problems.stream().noneMatch(TableProblem::isBlocking), problems.toString());
            try (TTable t = new TTable(TestCluster.connection(), table)) {
                Transaction writer = cluster.tm.begin();
                t.put(writer, new Put(Bytes.toBytes("r")).addColumn(F, Q, Bytes.toBytes("v")));
                cluster.tm.commit(writer);
                Transaction reader = cluster.tm.begin();
                assertEquals("v", Bytes.toString(t.get(reader, new Get(Bytes.toBytes("r"))).getValue(F, Q)));
                cluster.tm.rollback(reader);
            }
        } finally {
            TestCluster.drop(table);
        }
    }

    /** The shared batched cluster is another installation: a TSO with commit and timestamp tables of its own. */
    @Test
    void aTableBelongsToItsCommitTableAndAnotherInstallationRefusesIt(@InMode(CommitMode.BATCHED) TestCluster other)
            throws IOException {
        TableName table = cluster.createTransactionalTable("bound");
        String ours = cluster.commitTable.tableName().getNameAsString();
        try {
            assertEquals(ours, descriptor(table).getValue(TransactionalTableLayout.COMMIT_TABLE_KEY));
            assertProblem(other.admin.check(table), TableProblem.Severity.BLOCKING, "'" + ours + "'");
            IOException notEnabled = assertThrows(IOException.class, () -> other.admin.enable(table, other.tm));
            assertTrue(notEnabled.getMessage().contains("'" + ours + "'"), notEnabled.getMessage());
            try (TTable t = new TTable(TestCluster.connection(), table)) {
                Transaction tx = other.tm.begin();
                TableNotTransactionalException refused = assertThrows(TableNotTransactionalException.class,
                        () -> t.get(tx, new Get(Bytes.toBytes("r"))));
                assertTrue(refused.getMessage().contains(ours), refused.getMessage());
                assertFalse(refused.getMessage().contains("fixes every problem"), refused.getMessage());
                other.tm.rollback(tx);
            }
        } finally {
            TestCluster.drop(table);
        }
    }

    @Test
    void tableCommandCreatesChecksAndReportsProblems() throws IOException {
        TableCommand command = new TableCommand(TestCluster.connection(), cluster.config, TableFeature.DEFAULT);
        TableName table = cluster.newName("cli");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            assertEquals(0, command.run(List.of("create", table.getNameAsString(), "f", "g"), new PrintStream(out)));
            assertEquals(0, command.run(List.of("check", table.getNameAsString()), new PrintStream(out)));
            assertTrue(out.toString().contains("is fully transactional"), out.toString());
            assertEquals(2, command.run(List.of("create", table.getNameAsString()), new PrintStream(out)));
            assertEquals(2, command.run(List.of("frobnicate", "x"), new PrintStream(out)));
        } finally {
            TestCluster.drop(table);
        }
        TableName plain = cluster.createPlainTable("cliplain", 1);
        try {
            out.reset();
            assertEquals(1, command.run(List.of("check", plain.getNameAsString()), new PrintStream(out)));
            assertTrue(out.toString().contains("[blocking]") && out.toString().contains("[advisory]"),
                    out.toString());
        } finally {
            TestCluster.drop(plain);
        }
    }

    @Test
    void creatingATableThatExistsSaysSoInOneLineWithTheWayOut() throws IOException {
        TidemarkAdmin admin = new TidemarkAdmin(TestCluster.connection(), cluster.config);
        TableName table = cluster.newName("twice");
        try {
            admin.create(table, "f");
            TableExistsException e = assertThrows(TableExistsException.class, () -> admin.create(table, "f"));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.getMessage().contains("already exists") && e.getMessage().contains("table enable"),
                    e.getMessage());
        } finally {
            TestCluster.drop(table);
        }
    }

    @Test
    void aCoprocessorJarTheRegionServersCannotLoadIsNamedInOneLine() throws IOException {
        Configuration conf = new Configuration(cluster.config.hadoopConfiguration());
        conf.set(TidemarkConfig.ADMIN_COPROCESSOR_JAR.key(), "file:///nonexistent/tidemark-coprocessor-bundle.jar");
        TidemarkAdmin admin = new TidemarkAdmin(TestCluster.connection(), new TidemarkConfig(conf));
        TableName table = cluster.newName("badjar");

        IOException e = assertThrows(IOException.class, () -> admin.create(table, "f"));

        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot load the Tidemark coprocessors from"
                + " file:///nonexistent/tidemark-coprocessor-bundle.jar"), e.getMessage());
        try (Admin hbase = TestCluster.connection().getAdmin()) {
            assertFalse(hbase.tableExists(table));
        }
    }

    private static void assertProblem(List<TableProblem> problems, TableProblem.Severity severity, String text) {
        assertTrue(problems.stream().anyMatch(p -> p.severity() == severity && p.description().contains(text)),
                "expected a " + severity + " problem mentioning " + text + " in " + problems);
    }

    private static TableDescriptor descriptor(TableName table) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            return admin.getDescriptor(table);
        }
    }
}
