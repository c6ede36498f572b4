package io.tidemark.coprocessor.snapshot;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Randomized proof that server-side snapshot reads (the coprocessor) and client-side ones return exactly the same
 * cells. Every transaction of a random history writes the same mutations to two tables, one with the coprocessor
 * and one without, so both hold the same versions; writers commit, abort, crash before their commit record, crash
 * after it (no shadow cells), stay open while others read (and get invalidated by those reads), or commit late.
 * Readers compare scans, column subsets, row limits, multi-gets and exists on both tables, and the full scan
 * against a model of what committed.
 */
@ExtendWith(SharedTestClusters.class)
class SnapshotEquivalenceTest {

    private static final int ROWS = 10;
    private static final int STEPS = 160;
    private static final byte[][] FAMILIES = {F, G};
    private static final byte[][] QUALIFIERS = {Bytes.toBytes("a"), Bytes.toBytes("b"), Bytes.toBytes("c")};

    /** (row, family, qualifier) -> commit timestamp -> value, or null for a deletion. */
    private final Map<String, TreeMap<Long, byte[]>> committed = new HashMap<>();

    @ParameterizedTest
    @EachCommitMode
    void serverSideAndClientSideSnapshotsAreIdentical(TestCluster cluster) throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        String history = "history seed " + seed + " (" + cluster.mode + ")";
        try (TransactionManager crashAfterRecord = StagedFailures.withoutShadowCells(cluster.managerBuilder())) {
            TableName serverName = cluster.createTransactionalTable("server");
            TableName clientName = cluster.createTable("client", EnumSet.noneOf(TableFeature.class));
            try (TTable server = new TTable(TestCluster.connection(), serverName);
                 TTable client = new TTable(TestCluster.connection(), clientName)) {
                assertServerSideOnlyOn(server, client, cluster.tm);
                History h = new History(random, cluster.tm, crashAfterRecord, server, client);
                int reads = 0;
                for (int step = 0; step < STEPS; step++) {
                    int action = random.nextInt(100);
                    if (action < 30) {
                        h.finish(h.write(cluster.tm), true);
                    } else if (action < 38) {
                        h.finish(h.write(cluster.tm), false);
                    } else if (action < 45) {
                        h.write(cluster.tm);
                    } else if (action < 52) {
                        h.finish(h.write(crashAfterRecord), true);
                    } else if (action < 64) {
                        h.open.add(h.write(cluster.tm));
                    } else if (action < 78) {
                        if (!h.open.isEmpty()) {
                            h.finish(h.open.remove(random.nextInt(h.open.size())), true);
                        }
                    } else {
                        compareReads(h, random, history + " step " + step);
                        reads++;
                    }
                }
                while (!h.open.isEmpty()) {
                    h.finish(h.open.remove(0), true);
                }
                compareReads(h, random, history + " at the end");
                assertTrue(reads > 10, history);
                assertTrue(h.commits > 20 && h.failedCommits + h.rollbacks > 5, history + ": " + h.commits
                        + " commits, " + h.failedCommits + " failed commits, " + h.rollbacks + " rollbacks");
            } finally {
                TestCluster.drop(serverName);
                TestCluster.drop(clientName);
            }
        }
    }

    @Test
    void olderVersionsAreFetchedWhenTheNewestAreInvisible(TestCluster cluster) throws Exception {
        TableName serverName = cluster.createTransactionalTable("server");
        TableName clientName = cluster.createTable("client", EnumSet.noneOf(TableFeature.class));
        byte[] row = row(0);
        byte[] q = QUALIFIERS[0];
        try (TTable server = new TTable(TestCluster.connection(), serverName);
             TTable client = new TTable(TestCluster.connection(), clientName)) {
            Transaction committed = cluster.tm.begin();
            for (TTable t : new TTable[] {server, client}) {
                t.put(committed, new Put(row).addColumn(F, q, Bytes.toBytes("committed")));
            }
            cluster.tm.commit(committed);
            // More invisible versions on top than either path reads at first: half crashed, half rolled back.
            for (int i = 0; i < 12; i++) {
                Transaction invisible = cluster.tm.begin();
                for (TTable t : new TTable[] {server, client}) {
                    t.put(invisible, new Put(row).addColumn(F, q, Bytes.toBytes("invisible" + i)));
                }
                if (i % 2 == 0) {
                    cluster.tm.rollback(invisible);
                }
            }
            Transaction reader = cluster.tm.begin();
            assertEquals("committed", Bytes.toString(server.get(reader, new Get(row)).getValue(F, q)));
            assertEquals(scan(client, reader, new Scan()), scan(server, reader, new Scan()));
            assertEquals(1, scan(server, reader, new Scan()).stream().filter(c -> c.contains("=committed"))
                    .count());
            cluster.tm.rollback(reader);
        } finally {
            TestCluster.drop(serverName);
            TestCluster.drop(clientName);
        }
    }

    /** Only a table with the coprocessor takes Filters: proof that the two tables take different paths. */
    private static void assertServerSideOnlyOn(TTable server, TTable client, TransactionManager tm)
            throws IOException {
        Transaction tx = tm.begin();
        Scan filtered = new Scan().setFilter(new PrefixFilter(Bytes.toBytes("r")));
        try (ResultScanner s = server.getScanner(tx, filtered)) {
            assertNull(s.next());
        }
        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                () -> client.getScanner(tx, filtered));
        assertTrue(refused.getMessage().contains("coprocessor"), refused.getMessage());
        tm.rollback(tx);
    }

    private void compareReads(History h, Random random, String where) throws IOException {
        Transaction reader = h.tm.begin();
        Map<String, byte[]> ownWrites = new TreeMap<>();
        if (random.nextBoolean()) {
            // Read-your-own-writes goes through the same paths.
            byte[] row = row(random.nextInt(ROWS));
            byte[] q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
            byte[] value = Bytes.toBytes("own" + reader.startTimestamp());
            h.server.put(reader, new Put(row).addColumn(F, q, value));
            h.client.put(reader, new Put(row).addColumn(F, q, value));
            ownWrites.put(key(row, F, q), value);
        }
        List<String> serverRows = scan(h.server, reader, new Scan());
        assertEquals(scan(h.client, reader, new Scan()), serverRows, where + ": full scan");
        assertEquals(modelSnapshot(reader.startTimestamp(), ownWrites), values(serverRows), where + ": model");

        Scan subset = new Scan().addColumn(F, QUALIFIERS[0]).addFamily(G);
        assertEquals(scan(h.client, reader, subset), scan(h.server, reader, subset), where + ": column subset");
        Scan limited = new Scan().withStartRow(row(random.nextInt(ROWS))).setLimit(3);
        assertEquals(scan(h.client, reader, limited), scan(h.server, reader, limited), where + ": row limit");

        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Get g = new Get(row(random.nextInt(ROWS + 2)));
            if (random.nextBoolean()) {
                g.addColumn(FAMILIES[random.nextInt(2)], QUALIFIERS[random.nextInt(QUALIFIERS.length)]);
            }
            gets.add(g);
        }
        assertEquals(cells(h.client.get(reader, gets)), cells(h.server.get(reader, gets)), where + ": gets");
        Get one = gets.get(0);
        assertEquals(h.client.exists(reader, one), h.server.exists(reader, one), where + ": exists");
        assertEquals(cells(new Result[] {h.client.get(reader, one)}), cells(new Result[] {h.server.get(reader, one)}),
                where + ": get");
        h.tm.rollback(reader);
    }

    private Map<String, String> modelSnapshot(long snapshot, Map<String, byte[]> ownWrites) {
        Map<String, String> visible = new TreeMap<>();
        for (Map.Entry<String, TreeMap<Long, byte[]>> cell : committed.entrySet()) {
            Map.Entry<Long, byte[]> last = cell.getValue().lowerEntry(snapshot);
            if (last != null && last.getValue() != null) {
                visible.put(cell.getKey(), Bytes.toString(last.getValue()));
            }
        }
        ownWrites.forEach((k, v) -> {
            if (v == null) {
                visible.remove(k);
            } else {
                visible.put(k, Bytes.toString(v));
            }
        });
        return visible;
    }

    private static Map<String, String> values(List<String> cells) {
        Map<String, String> values = new TreeMap<>();
        for (String c : cells) {
            if (c.equals("|")) {
                continue;
            }
            String[] parts = c.split("@\\d+=", 2);
            values.put(parts[0], parts[1]);
        }
        return values;
    }

    private static List<String> scan(TTable table, Transaction tx, Scan scan) throws IOException {
        List<String> cells = new ArrayList<>();
        try (ResultScanner scanner = table.getScanner(tx, scan)) {
            for (Result r : scanner) {
                assertTrue(!r.isEmpty(), "scanners return no empty rows");
                cells.addAll(cells(new Result[] {r}));
            }
        }
        return cells;
    }

    private static List<String> cells(Result[] results) {
        List<String> cells = new ArrayList<>();
        for (Result r : results) {
            for (Cell c : r.rawCells()) {
                cells.add(key(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)) + "@"
                        + c.getTimestamp() + "=" + Bytes.toString(CellUtil.cloneValue(c)));
            }
            cells.add("|");
        }
        return cells;
    }

    private static String key(byte[] row, byte[] family, byte[] qualifier) {
        return Bytes.toString(row) + "/" + Bytes.toString(family) + ":" + Bytes.toString(qualifier);
    }

    private static byte[] row(int i) {
        return Bytes.toBytes(String.format("r%02d", i));
    }

    /** A random history applied to both tables, and the model of what it committed. */
    private final class History {
        final Random random;
        final TransactionManager tm;
        final TransactionManager crashAfterRecord;
        final TTable server;
        final TTable client;
        final List<Writer> open = new ArrayList<>();
        int commits;
        int failedCommits;
        int rollbacks;
        int values;

        History(Random random, TransactionManager tm, TransactionManager crashAfterRecord, TTable server,
                TTable client) {
            this.random = random;
            this.tm = tm;
            this.crashAfterRecord = crashAfterRecord;
            this.server = server;
            this.client = client;
        }

        /** Begins a transaction and writes 1-3 random mutations to both tables. */
        Writer write(TransactionManager manager) throws IOException {
            Writer w = new Writer(manager, manager.begin());
            int mutations = 1 + random.nextInt(3);
            for (int i = 0; i < mutations; i++) {
                byte[] row = row(random.nextInt(ROWS));
                byte[] family = FAMILIES[random.nextInt(FAMILIES.length)];
                byte[] q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
                int kind = random.nextInt(10);
                if (kind < 7) {
                    byte[] value = Bytes.toBytes("v" + values++);
                    server.put(w.tx, new Put(row).addColumn(family, q, value));
                    client.put(w.tx, new Put(row).addColumn(family, q, value));
                    w.writes.put(key(row, family, q), value);
                } else if (kind < 9) {
                    server.delete(w.tx, new Delete(row).addColumns(family, q));
                    client.delete(w.tx, new Delete(row).addColumns(family, q));
                    w.writes.put(key(row, family, q), null);
                } else {
                    // A row delete removes the columns the writer's snapshot shows (its own writes included).
                    Map<String, byte[]> visibleNow = new HashMap<>();
                    String prefix = Bytes.toString(row) + "/";
                    modelSnapshot(w.tx.startTimestamp(), w.writes).forEach((k, v) -> {
                        if (k.startsWith(prefix) && v != null) {
                            visibleNow.put(k, null);
                        }
                    });
                    server.delete(w.tx, new Delete(row));
                    client.delete(w.tx, new Delete(row));
                    w.writes.putAll(visibleNow);
                }
            }
            return w;
        }

        void finish(Writer w, boolean commit) {
            if (!commit) {
                w.manager.rollback(w.tx);
                rollbacks++;
                return;
            }
            try {
                w.manager.commit(w.tx);
            } catch (TransactionAbortedException e) {
                failedCommits++;
                return;
            } catch (Exception e) {
                throw new AssertionError("commit failed unexpectedly", e);
            }
            commits++;
            long commitTs = w.tx.commitTimestamp();
            w.writes.forEach((k, v) -> committed.computeIfAbsent(k, x -> new TreeMap<>()).put(commitTs, v));
        }
    }

    private static final class Writer {
        final TransactionManager manager;
        final Transaction tx;
        final Map<String, byte[]> writes = new TreeMap<>();

        Writer(TransactionManager manager, Transaction tx) {
            this.manager = manager;
            this.tx = tx;
        }
    }
}
