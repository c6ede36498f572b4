package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.InMode;
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
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fast-path reads against generic snapshot reads against a model (issue 10), over randomized histories that mix
 * generic transactions (committed, rolled back, crashed before their commit record, crashed after it without shadow
 * cells, left running while others read, committed late) with fast-path writes, deletes and conditional writes. After
 * every step a row is read three ways: the fast path's latest committed state (values and row version), a generic
 * transaction begun right after it (resolved by the region server or by the client), and the model of what
 * committed. All three must agree.
 */
@ExtendWith(SharedTestClusters.class)
class FastPathEquivalenceTest {

    private static final int ROWS = 6;
    private static final int STEPS = 120;
    private static final byte[][] QUALIFIERS = {Bytes.toBytes("a"), Bytes.toBytes("b")};

    /** "row/qualifier" to commit timestamp (or fast-path version) to value, null for a deletion. */
    private final Map<String, TreeMap<Long, String>> committed = new TreeMap<>();

    /**
     * Each commit mode and each place a generic read resolves its snapshot, in two runs rather than four: the mode
     * decides who writes a commit record, the feature decides where a read looks it up, and neither changes what the
     * other does, so every value of each is run once.
     */
    @ParameterizedTest(name = "{0}, server-side snapshots: {1}")
    @MethodSource("modesAndReadPaths")
    void fastPathAndGenericReadsSeeTheSameCommittedRows(TestCluster cluster, boolean serverSide) throws Exception {
        long seed = System.nanoTime();
        String history = "history seed " + seed + " (" + cluster.mode + ", server side " + serverSide + ")";
        Random random = new Random(seed);
        Set<TableFeature> features = serverSide
                ? EnumSet.of(TableFeature.FAST_PATH, TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.COMPACTION_GC)
                : EnumSet.of(TableFeature.FAST_PATH);
        try (TransactionManager crashAfterRecord = StagedFailures.withoutShadowCells(cluster.managerBuilder())) {
            TableName name = cluster.createTable("rows", features);
            try (TTable table = new TTable(TestCluster.connection(), name);
                 FastPathTable fp = cluster.fastPath(name)) {
                Steps steps = new Steps(random, cluster.tm, crashAfterRecord, table, fp);
                for (int step = 0; step < STEPS; step++) {
                    steps.randomStep();
                    compare(cluster.tm, table, fp, random.nextInt(ROWS), history + " step " + step);
                }
                // A random history may never send a fast-path write to a row with a pending generic writer.
                int pendingRow = steps.fastPathWriteOnPendingRow();
                compare(cluster.tm, table, fp, pendingRow, history + " after a fast-path write on a pending row");
                for (Steps.Writer w : new ArrayList<>(steps.open)) {
                    steps.commit(w);
                }
                for (int row = 0; row < ROWS; row++) {
                    compare(cluster.tm, table, fp, row, history + " at the end");
                }
                assertTrue(steps.genericCommits > 10 && steps.fastPathCommits > 10 && steps.fastPathConflicts > 0,
                        history + ": " + steps);
            } finally {
                TestCluster.drop(name);
            }
        }
    }

    static Stream<Arguments> modesAndReadPaths(@InMode(CommitMode.LOW_LATENCY) TestCluster lowLatency,
                                               @InMode(CommitMode.BATCHED) TestCluster batched) {
        return Stream.of(Arguments.of(Named.of("low-latency", lowLatency), true),
                Arguments.of(Named.of("batched", batched), false));
    }

    /** The fast path's latest committed row, a new generic snapshot of it, and the model. */
    private void compare(TransactionManager tm, TTable table, FastPathTable fp, int row, String where)
            throws IOException {
        VersionedResult fast = fp.get(new Get(row(row)));
        Transaction reader = tm.begin();
        Result generic = table.get(reader, new Get(row(row)));
        tm.rollback(reader);
        String expected = modelValues(row);
        assertEquals(expected, values(fast.result()), where + ": fast-path read of row " + row);
        assertEquals(expected, values(generic), where + ": generic snapshot read of row " + row);
        assertEquals(modelVersion(row), fast.version(), where + ": row version of row " + row);
    }

    private String modelValues(int row) {
        List<String> values = new ArrayList<>();
        for (byte[] q : QUALIFIERS) {
            TreeMap<Long, String> versions = committed.get(cell(row, q));
            if (versions != null && versions.lastEntry().getValue() != null) {
                values.add(Bytes.toString(q) + "=" + versions.lastEntry().getValue());
            }
        }
        return String.join(" ", values);
    }

    private long modelVersion(int row) {
        long version = 0;
        for (byte[] q : QUALIFIERS) {
            TreeMap<Long, String> versions = committed.get(cell(row, q));
            if (versions != null) {
                version = Math.max(version, versions.lastKey());
            }
        }
        return version;
    }

    private static String values(Result r) {
        List<String> values = new ArrayList<>();
        for (Cell c : r.rawCells()) {
            values.add(Bytes.toString(CellUtil.cloneQualifier(c)) + "=" + Bytes.toString(CellUtil.cloneValue(c)));
        }
        return String.join(" ", values);
    }

    private static byte[] row(int i) {
        return Bytes.toBytes("row" + i);
    }

    private static String cell(int row, byte[] qualifier) {
        return row + "/" + Bytes.toString(qualifier);
    }

    /** The random operations of a history, and what they committed (into the model). */
    private final class Steps {
        final Random random;
        final TransactionManager tm;
        final TransactionManager crashAfterRecord;
        final TTable table;
        final FastPathTable fp;
        final List<Writer> open = new ArrayList<>();
        int values;
        int genericCommits;
        int genericAborts;
        int fastPathCommits;
        int fastPathConflicts;

        Steps(Random random, TransactionManager tm, TransactionManager crashAfterRecord, TTable table,
                FastPathTable fp) {
            this.random = random;
            this.tm = tm;
            this.crashAfterRecord = crashAfterRecord;
            this.table = table;
            this.fp = fp;
        }

        void randomStep() throws IOException {
            int action = random.nextInt(100);
            if (action < 25) {
                Writer w = write(tm);
                if (w != null) {
                    commit(w);
                }
            } else if (action < 30) {
                Writer w = write(tm);
                if (w != null) {
                    tm.rollback(w.tx);
                }
            } else if (action < 35) {
                // Crashed before its commit record: never committed.
                write(tm);
            } else if (action < 40) {
                Writer w = write(crashAfterRecord);
                if (w != null) {
                    commit(w);
                }
            } else if (action < 50) {
                Writer w = write(tm);
                if (w != null) {
                    open.add(w);
                }
            } else if (action < 58) {
                if (!open.isEmpty()) {
                    commit(open.remove(random.nextInt(open.size())));
                }
            } else {
                fastPathWrite(random.nextInt(ROWS));
            }
        }

        /**
         * A generic transaction left pending on a random row, then a fast-path write to that row, which must be
         * refused. Returns the row.
         */
        int fastPathWriteOnPendingRow() throws IOException {
            int row = random.nextInt(ROWS);
            byte[] q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
            for (int attempt = 1; ; attempt++) {
                Writer w = new Writer(tm, tm.begin());
                String value = "g" + values++;
                try {
                    table.put(w.tx, new Put(row(row)).addColumn(F, q, Bytes.toBytes(value)));
                } catch (TransactionAbortedException newerFastPathWrite) {
                    genericAborts++;
                    assertTrue(attempt < 10, "no generic write to row " + row + " got through: " + newerFastPathWrite);
                    continue;
                }
                w.writes.put(cell(row, q), value);
                open.add(w);
                break;
            }
            int conflictsBefore = fastPathConflicts;
            fastPathWrite(row);
            assertEquals(conflictsBefore + 1, fastPathConflicts, "a fast-path write to row " + row
                    + " with a pending generic writer is refused");
            return row;
        }

        /** A generic transaction writing one or two cells of one row; null when a newer fast-path write refused it. */
        Writer write(TransactionManager manager) throws IOException {
            Writer w = new Writer(manager, manager.begin());
            int row = random.nextInt(ROWS);
            for (byte[] q : QUALIFIERS) {
                if (random.nextBoolean()) {
                    continue;
                }
                String value = random.nextInt(5) == 0 ? null : "g" + values++;
                try {
                    if (value == null) {
                        table.delete(w.tx, new Delete(row(row)).addColumns(F, q));
                    } else {
                        table.put(w.tx, new Put(row(row)).addColumn(F, q, Bytes.toBytes(value)));
                    }
                } catch (TransactionAbortedException newerFastPathWrite) {
                    genericAborts++;
                    return null;
                }
                w.writes.put(cell(row, q), value);
            }
            return w;
        }

        void commit(Writer w) {
            try {
                w.manager.commit(w.tx);
            } catch (TransactionAbortedException e) {
                genericAborts++;
                return;
            } catch (IOException e) {
                throw new AssertionError("commit failed unexpectedly", e);
            }
            genericCommits++;
            long commit = w.tx.commitTimestamp();
            w.writes.forEach((cell, value) -> committed.computeIfAbsent(cell, c -> new TreeMap<>()).put(commit,
                    value));
        }

        void fastPathWrite(int row) throws IOException {
            byte[] q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
            String value = "f" + values++;
            try {
                long version;
                int kind = random.nextInt(10);
                if (kind < 5) {
                    version = fp.put(new Put(row(row)).addColumn(F, q, Bytes.toBytes(value)));
                } else if (kind < 7) {
                    version = fp.delete(new Delete(row(row)).addColumns(F, q));
                    value = null;
                } else {
                    VersionedResult read = fp.getForUpdate(new Get(row(row)));
                    version = fp.putIfUnchanged(new Put(row(row)).addColumn(F, q, Bytes.toBytes(value)),
                            read.version());
                }
                fastPathCommits++;
                committed.computeIfAbsent(cell(row, q), c -> new TreeMap<>()).put(version, value);
            } catch (FastPathConflictException pendingWriter) {
                fastPathConflicts++;
            }
        }

        @Override
        public String toString() {
            return genericCommits + " generic commits, " + genericAborts + " generic aborts, " + fastPathCommits
                    + " fast-path commits, " + fastPathConflicts + " fast-path conflicts";
        }

        final class Writer {
            final TransactionManager manager;
            final Transaction tx;
            final Map<String, String> writes = new TreeMap<>();

            Writer(TransactionManager manager, Transaction tx) {
                this.manager = manager;
                this.tx = tx;
            }
        }
    }
}
