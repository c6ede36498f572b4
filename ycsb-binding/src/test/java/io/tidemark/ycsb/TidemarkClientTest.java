package io.tidemark.ycsb;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.testing.InMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binding's DB operations against a real HBase mini-cluster and a real TSO over a socket. */
@ExtendWith(SharedTestClusters.class)
class TidemarkClientTest {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static TestCluster lowLatency;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        lowLatency = shared;
    }

    @ParameterizedTest
    @EnumSource(value = BindingMode.class, names = {"RAW", "GENERIC", "FASTPATH"})
    void everyYcsbOperationWorks(BindingMode mode) throws DBException {
        String table = newTableName("ops");
        TidemarkClient client = start(YcsbProperties.of(lowLatency, mode, table));
        try {
            for (String key : new String[] {"user1", "user2", "user3"}) {
                assertEquals(Status.OK, client.insert(table, key, record(key + "-a", key + "-b")));
            }
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, client.read(table, "user2", null, read));
            assertEquals(Map.of("field0", "user2-a", "field1", "user2-b"), strings(read));

            assertEquals(Status.OK, client.update(table, "user2",
                    StringByteIterator.getByteIteratorMap(Map.of("field1", "changed"))));
            Map<String, ByteIterator> one = new HashMap<>();
            assertEquals(Status.OK, client.read(table, "user2", Set.of("field1"), one));
            assertEquals(Map.of("field1", "changed"), strings(one));

            Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
            assertEquals(Status.OK, client.scan(table, "user2", 2, null, scanned));
            assertEquals(2, scanned.size());
            assertEquals("changed", scanned.get(0).get("field1").toString());
            assertEquals("user3-a", scanned.get(1).get("field0").toString());

            assertEquals(Status.OK, client.delete(table, "user1"));
            assertEquals(Status.NOT_FOUND, client.read(table, "user1", null, new HashMap<>()));
            assertEquals(mode, client.mode());
        } finally {
            client.cleanup();
        }
    }

    @Test
    void aConflictingCommitIsReportedAsAbortedNotAsAnError() throws DBException {
        String table = newTableName("conflict");
        Properties p = YcsbProperties.of(lowLatency, BindingMode.GENERIC, table);
        TidemarkClient first = start(p);
        TidemarkClient second = start(p);
        try {
            assertEquals(Status.OK, first.insert(table, "user1", record("initial", "x")));
            assertEquals(Status.OK, first.beginTransaction());
            assertEquals(Status.OK, first.update(table, "user1", record("first", "x")));
            assertEquals(Status.OK, second.update(table, "user1", record("second", "x")));

            assertEquals(TidemarkClient.ABORTED, first.commitTransaction());
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, second.read(table, "user1", null, read));
            assertEquals("second", read.get("field0").toString());
        } finally {
            first.cleanup();
            second.cleanup();
        }
    }

    @Test
    void fastpathModeWritesSingleKeysAndOneRegionTransactionsAtMintedVersions()
            throws IOException, DBException {
        String table = newTableName("fpversions");
        TidemarkClient client = start(YcsbProperties.of(lowLatency, BindingMode.FASTPATH, table));
        try {
            assertEquals(Status.OK, client.insert(table, "alone", record("a", "b")));
            assertEquals(Status.OK, client.beginTransaction());
            assertEquals(Status.OK, client.insert(table, "together", record("c", "d")));
            assertEquals(Status.OK, client.commitTransaction());

            assertFalse(Timestamps.isTsoTimestamp(field0Version(table, "alone")), "a fast-path write is minted");
            // A transaction whose writes all fall in one region of a fast-path table commits in that region
            // (docs/architecture.md, "Single-region commit"), at a version the region mints.
            assertFalse(Timestamps.isTsoTimestamp(field0Version(table, "together")),
                    "a one-region transaction commits in its region");
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, client.read(table, "together", null, read));
            assertEquals("c", read.get("field0").toString());
        } finally {
            client.cleanup();
        }
    }

    @Test
    void aFastPathWriteWhileATransactionKeepsItsWriteIsOrderedBeforeThatTransaction() throws DBException {
        String table = newTableName("fpconflict");
        Properties p = YcsbProperties.of(lowLatency, BindingMode.FASTPATH, table);
        TidemarkClient generic = start(p);
        TidemarkClient fast = start(p);
        try {
            assertEquals(Status.OK, fast.insert(table, "user1", record("initial", "x")));
            assertEquals(Status.OK, generic.beginTransaction());
            assertEquals(Status.OK, generic.update(table, "user1", record("generic", "x")));

            // The transaction keeps its write until commit and read nothing, so the fast-path write finds no
            // undecided writer and is minted below the transaction's snapshot: it comes first, the blind write of
            // the transaction after it (docs/fast-path.md, "Mixing with generic transactions").
            assertEquals(Status.OK, fast.update(table, "user1", record("fast", "x")));
            assertEquals(Status.OK, generic.commitTransaction());
            Map<String, ByteIterator> read = new HashMap<>();
            assertEquals(Status.OK, fast.read(table, "user1", null, read));
            assertEquals("generic", read.get("field0").toString());
        } finally {
            generic.cleanup();
            fast.cleanup();
        }
    }

    @Test
    void fastpathModeRefusesATableWithoutTheFastPathCoprocessorNamingTheFix() throws IOException {
        String table = newTableName("nocoprocessor");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(table))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("family"))
                            .setMaxVersions(Integer.MAX_VALUE).build())
                    .build());
        }
        DBException e = assertThrows(DBException.class,
                () -> start(YcsbProperties.of(lowLatency, BindingMode.FASTPATH, table)));
        assertTrue(e.getMessage().contains("has no fast path"), e.getMessage());
        assertTrue(e.getMessage().contains("alter '" + table + "', METHOD => 'table_att', 'coprocessor' => '|"
                + TransactionalTableLayout.TRANSACTIONAL_OBSERVER + "|" + TransactionalTableLayout.COPROCESSOR_PRIORITY
                + "|"), e.getMessage());
    }

    @Test
    void anExplicitTransactionCommitsOrRollsBackAllItsWrites() throws DBException {
        String table = newTableName("explicit");
        Properties p = YcsbProperties.of(lowLatency, BindingMode.GENERIC, table);
        TidemarkClient writer = start(p);
        TidemarkClient reader = start(p);
        try {
            assertEquals(Status.OK, writer.beginTransaction());
            assertEquals(Status.OK, writer.insert(table, "user1", record("a", "b")));
            assertEquals(Status.OK, writer.insert(table, "user2", record("c", "d")));
            assertEquals(Status.OK, writer.commitTransaction());
            assertEquals(Status.OK, reader.read(table, "user1", null, new HashMap<>()));
            assertEquals(Status.OK, reader.read(table, "user2", null, new HashMap<>()));

            assertEquals(Status.OK, writer.beginTransaction());
            assertEquals(Status.OK, writer.delete(table, "user1"));
            writer.rollbackTransaction();
            assertEquals(Status.OK, reader.read(table, "user1", null, new HashMap<>()));
        } finally {
            writer.cleanup();
            reader.cleanup();
        }
    }

    @Test
    void theSharedConnectionOutlivesTheFirstThreadToFinish() throws DBException {
        String table = newTableName("shared");
        Properties p = YcsbProperties.of(lowLatency, BindingMode.GENERIC, table);
        TidemarkClient early = start(p);
        TidemarkClient late = start(p);
        try {
            assertEquals(Status.OK, early.insert(table, "user1", record("a", "b")));
        } finally {
            early.cleanup();
        }
        try {
            assertEquals(Status.OK, late.read(table, "user1", null, new HashMap<>()));
        } finally {
            late.cleanup();
        }
        TidemarkClient again = start(p);
        try {
            assertEquals(Status.OK, again.read(table, "user1", null, new HashMap<>()));
        } finally {
            again.cleanup();
        }
    }

    @Test
    void batchedModeRefusesALowLatencyTso() {
        Properties p = YcsbProperties.of(lowLatency, BindingMode.BATCHED, newTableName("wrongmode"));
        DBException e = assertThrows(DBException.class, () -> start(p));
        assertTrue(e.getMessage().contains("tidemark.mode=batched needs a TSO in batched commit mode"),
                e.getMessage());
        assertTrue(e.getMessage().contains("runs in low-latency mode"), e.getMessage());
    }

    @Test
    void batchedModeRunsAgainstABatchedTsoAndGenericModeRefusesIt(@InMode(CommitMode.BATCHED) TestCluster batched)
            throws DBException {
        String table = newTableName("batched");
        TidemarkClient client = start(YcsbProperties.of(batched, BindingMode.BATCHED, table));
        try {
            assertEquals(Status.OK, client.insert(table, "user1", record("a", "b")));
            assertEquals(Status.OK, client.read(table, "user1", null, new HashMap<>()));
        } finally {
            client.cleanup();
        }
        DBException e = assertThrows(DBException.class,
                () -> start(YcsbProperties.of(batched, BindingMode.GENERIC, table)));
        assertTrue(e.getMessage().contains("needs a TSO in low-latency commit mode"), e.getMessage());
    }

    @Test
    void aMissingTableIsReportedUnlessItsCreationIsAsked() {
        Properties p = YcsbProperties.of(lowLatency, BindingMode.GENERIC, newTableName("missing"));
        p.setProperty(BindingSettings.CREATE_TABLE, "false");
        DBException e = assertThrows(DBException.class, () -> start(p));
        assertTrue(e.getMessage().contains("does not exist; set tidemark.createtable=true"), e.getMessage());
    }

    @Test
    void anUnmarkedFamilyIsRefusedForTransactionsNamingTableEnable() throws IOException, DBException {
        String table = newTableName("unmarked");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(table))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("family"))
                            .setMaxVersions(Integer.MAX_VALUE).build())
                    .build());
        }
        try {
            DBException e = assertThrows(DBException.class,
                    () -> start(YcsbProperties.of(lowLatency, BindingMode.GENERIC, table)));
            assertTrue(e.getMessage().contains("./tidemark table enable " + table), e.getMessage());
            TidemarkClient raw = start(YcsbProperties.of(lowLatency, BindingMode.RAW, table));
            raw.cleanup();
        } finally {
            TestCluster.drop(TableName.valueOf(table));
        }
    }

    @Test
    void aFamilyKeepingOneVersionIsRefusedForTransactionsButFineForRaw() throws IOException, DBException {
        String table = newTableName("oneversion");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(table))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("family"))
                            .setMaxVersions(1).build())
                    .build());
        }
        DBException e = assertThrows(DBException.class,
                () -> start(YcsbProperties.of(lowLatency, BindingMode.GENERIC, table)));
        assertTrue(e.getMessage().contains("keeps 1 version(s)"), e.getMessage());
        TidemarkClient raw = start(YcsbProperties.of(lowLatency, BindingMode.RAW, table));
        raw.cleanup();
    }

    @Test
    void anUnreachableTsoIsReportedAtInit() {
        Properties p = YcsbProperties.of(lowLatency, BindingMode.GENERIC, newTableName("notso"));
        p.setProperty(BindingSettings.TSO_ADDRESS, "127.0.0.1:1");
        p.setProperty(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS.key(), "300");
        DBException e = assertThrows(DBException.class, () -> start(p));
        assertTrue(e.getMessage().contains("cannot reach the TSO at 127.0.0.1:1"), e.getMessage());
    }

    private static TidemarkClient start(Properties p) throws DBException {
        TidemarkClient client = new TidemarkClient();
        client.setProperties(p);
        client.init();
        return client;
    }

    /** The version of the newest cell of field0 of {@code key}, read with plain HBase. */
    private static long field0Version(String table, String key) throws IOException {
        try (Table t = TestCluster.connection().getTable(TableName.valueOf(table))) {
            Cell cell = t.get(new Get(Bytes.toBytes(key)).addColumn(Bytes.toBytes("family"), Bytes.toBytes("field0")))
                    .getColumnLatestCell(Bytes.toBytes("family"), Bytes.toBytes("field0"));
            assertNotNull(cell, "no field0 in " + key);
            return cell.getTimestamp();
        }
    }

    private static String newTableName(String prefix) {
        return "ycsb_" + prefix + "_" + TABLES.incrementAndGet();
    }

    private static Map<String, ByteIterator> record(String field0, String field1) {
        Map<String, String> values = new HashMap<>();
        values.put("field0", field0);
        values.put("field1", field1);
        return StringByteIterator.getByteIteratorMap(values);
    }

    private static Map<String, String> strings(Map<String, ByteIterator> record) {
        Map<String, String> out = new HashMap<>();
        record.forEach((k, v) -> out.put(k, v.toString()));
        return Collections.unmodifiableMap(out);
    }
}
