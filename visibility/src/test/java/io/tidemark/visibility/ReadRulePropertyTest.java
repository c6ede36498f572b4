package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One read rule, three worlds: randomized histories are applied to an in-memory store and to a real HRegion (each with
 * its own in-memory commit table), and every snapshot read and every fast-path read of the latest committed row is
 * run on both through the same {@link SnapshotQuery} and {@link CommittedRow}, and compared with a model computed from
 * what the history committed. The stores must agree with each other (reads and invalidations alike) and with the
 * model, also on which writers a plain fast-path read invalidates: the undecided ones that started at or below the
 * row version it answers.
 *
 * <p>Histories hold writers that commit, roll back, crash before their commit record, crash after it (no shadow
 * cells), finish their post-commit halfway, get their commit timestamp but write the record late (low-latency mode,
 * where readers invalidate them first), deletes, fast-path writes (minted versions with their shadow cells), TSO
 * restarts (epochs) and flushes of the region. Writers of one cell obey first-committer-wins, as the TSO makes them.
 */
class ReadRulePropertyTest {

    private static final int HISTORIES = 12;
    private static final int STEPS = 150;
    private static final int ROWS = 3;
    private static final String[] QUALIFIERS = {"a", "b", "c"};

    /** One region for all histories (opening one costs seconds); each history has rows of its own. */
    private static LocalRegionStore region;

    @BeforeAll
    static void openRegion() throws IOException {
        region = new LocalRegionStore(F);
    }

    @AfterAll
    static void closeRegion() throws IOException {
        region.close();
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void everyStoreReadsWhatTheModelCommitted(CommitMode mode) throws Exception {
        int reads = 0;
        int fastPathWrites = 0;
        int lostCommits = 0;
        int fastPathReads = 0;
        int invalidatedByFastPathReads = 0;
        for (int h = 0; h < HISTORIES; h++) {
            long seed = 7919L * h + mode.ordinal();
            History history = new History(mode, new Random(seed), mode + "-" + h + "-");
            history.run("history seed " + seed + " (" + mode + ")");
            reads += history.reads;
            fastPathWrites += history.fastPathWrites;
            lostCommits += history.lostCommits;
            fastPathReads += history.fastPathReads;
            invalidatedByFastPathReads += history.invalidatedByFastPathReads;
        }
        String totals = reads + " snapshot reads, " + fastPathWrites + " fast-path writes, " + fastPathReads
                + " fast-path reads, " + lostCommits + " commits lost to a snapshot reader's invalidation, "
                + invalidatedByFastPathReads + " writers invalidated by a fast-path read";
        System.out.println(mode + ": " + totals);
        assertTrue(reads > 20 * HISTORIES && fastPathWrites > HISTORIES && fastPathReads > HISTORIES, totals);
        assertTrue(invalidatedByFastPathReads > 0, totals);
        assertTrue(mode == CommitMode.BATCHED ? lostCommits == 0 : lostCommits > 0, totals);
    }

    /** A store with its own commit table: every history is applied to each. */
    private static final class Replica {
        final String name;
        final VersionStore store;
        final InMemoryCommitTable commitTable = new InMemoryCommitTable();

        Replica(String name, VersionStore store) {
            this.name = name;
            this.store = store;
        }

        void deleteVersion(byte[] row, byte[] qualifier, long version) throws IOException {
            if (store instanceof LocalRegionStore) {
                ((LocalRegionStore) store).deleteVersion(row, F, qualifier, version);
            } else {
                ((InMemoryVersionStore) store).deleteVersion(row, F, qualifier, version);
            }
        }
    }

    private enum State {
        RUNNING,
        /** Low-latency mode: the TSO gave it a commit timestamp, the client has not written the record yet. */
        COMMITTING,
        COMMITTED,
        ROLLED_BACK,
        CRASHED
    }

    /** A writer of the history: a generic transaction or a fast-path write (start = commit = minted version). */
    private static final class Writer {
        final long start;
        /** "row/qualifier" to the value written, or null for a deletion. */
        final Map<String, String> writes = new TreeMap<>();
        State state = State.RUNNING;
        long commit;

        Writer(long start) {
            this.start = start;
        }
    }

    private static final class History {
        final CommitMode mode;
        final Random random;
        final String rowPrefix;
        final List<Replica> replicas = new ArrayList<>();
        final List<Writer> writers = new ArrayList<>();
        long clock;
        long epoch;
        int values;
        int reads;
        int fastPathWrites;
        int lostCommits;
        int fastPathReads;
        int invalidatedByFastPathReads;
        /** Writers a fast-path read invalidated: their commits are not counted as lost to a snapshot reader. */
        final Set<Long> invalidatedByFastPath = new HashSet<>();
        String where;

        History(CommitMode mode, Random random, String rowPrefix) {
            this.mode = mode;
            this.random = random;
            this.rowPrefix = rowPrefix;
            replicas.add(new Replica("in-memory store", new InMemoryVersionStore()));
            replicas.add(new Replica("HRegion", region));
        }

        long nextTimestamp() {
            clock += S;
            return clock;
        }

        void run(String history) throws IOException {
            for (int step = 0; step < STEPS; step++) {
                where = history + ", step " + step;
                int action = random.nextInt(100);
                if (action < 25) {
                    begin();
                } else if (action < 45) {
                    finishSome();
                } else if (action < 52) {
                    writeLateRecord();
                } else if (action < 59) {
                    fastPathWrite();
                } else if (action < 70) {
                    fastPathRead();
                } else if (action < 92) {
                    read();
                } else if (action < 93) {
                    region.flush();
                } else {
                    restartTso();
                }
            }
            where = history + " at the end";
            read();
        }

        void begin() throws IOException {
            Writer w = new Writer(nextTimestamp());
            int cells = 1 + random.nextInt(3);
            for (int i = 0; i < cells; i++) {
                String cell = cell(random.nextInt(ROWS), QUALIFIERS[random.nextInt(QUALIFIERS.length)]);
                if (!w.writes.containsKey(cell)) {
                    w.writes.put(cell, write(w.start, cell, random.nextInt(5) == 0 ? null : "v" + values++, false));
                }
            }
            writers.add(w);
        }

        /**
         * Writes a data cell (or, for a null value, a tombstone) at {@code version} to every replica, with its shadow
         * cell if asked; returns the value.
         */
        String write(long version, String cell, String value, boolean withShadow) throws IOException {
            byte[] row = row(cell);
            byte[] q = qualifier(cell);
            Put put = new Put(row);
            if (value == null) {
                put.addColumn(F, CellEncoding.tombstoneQualifier(q), version, CellEncoding.TOMBSTONE_DELETE);
            } else {
                put.addColumn(F, q, version, Bytes.toBytes(value));
            }
            if (withShadow) {
                put.addColumn(F, CellEncoding.shadowQualifier(q), version, CellEncoding.encodeCommitTimestamp(version));
            }
            for (Replica r : replicas) {
                r.store.put(put);
            }
            return value;
        }

        void finishSome() throws IOException {
            Writer w = pick(State.RUNNING);
            if (w == null) {
                return;
            }
            int fate = random.nextInt(100);
            if (fate < 10) {
                rollBack(w);
            } else if (fate < 15) {
                w.state = State.CRASHED;
            } else if (conflicts(w)) {
                rollBack(w);
            } else {
                w.commit = nextTimestamp();
                if (mode == CommitMode.LOW_LATENCY && random.nextInt(4) == 0) {
                    w.state = State.COMMITTING;
                } else {
                    writeRecord(w);
                }
            }
        }

        void writeLateRecord() throws IOException {
            Writer w = pick(State.COMMITTING);
            if (w != null) {
                writeRecord(w);
            }
        }

        /** First committer wins: a committed write of one of w's cells after w started. */
        boolean conflicts(Writer w) {
            for (Writer other : writers) {
                if (other.state == State.COMMITTED && other.commit > w.start) {
                    for (String cell : w.writes.keySet()) {
                        if (other.writes.containsKey(cell)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        void writeRecord(Writer w) throws IOException {
            Boolean won = null;
            for (Replica r : replicas) {
                boolean standing = r.commitTable.tryCommit(new CommitRecord(w.start, w.commit));
                if (won != null) {
                    assertEquals(won, standing, where + ": the replicas disagree whether " + w.start + " committed");
                }
                won = standing;
            }
            if (!won) {
                if (!invalidatedByFastPath.contains(w.start)) {
                    lostCommits++;
                }
                rollBack(w);
                return;
            }
            w.state = State.COMMITTED;
            int postCommit = random.nextInt(10);
            if (postCommit < 7) {
                shadowCells(w, w.writes.size());
                for (Replica r : replicas) {
                    r.commitTable.release(new CommitRecord(w.start, w.commit));
                }
            } else if (postCommit < 9) {
                shadowCells(w, random.nextInt(w.writes.size()));
            }
            // Otherwise the client crashed right after its record: no shadow cell, the record stays.
        }

        void shadowCells(Writer w, int howMany) throws IOException {
            int i = 0;
            for (String cell : w.writes.keySet()) {
                if (i++ == howMany) {
                    return;
                }
                Put shadow = new Put(row(cell)).addColumn(F, CellEncoding.shadowQualifier(qualifier(cell)), w.start,
                        CellEncoding.encodeCommitTimestamp(w.commit));
                for (Replica r : replicas) {
                    r.store.put(shadow);
                }
            }
        }

        void rollBack(Writer w) throws IOException {
            w.state = State.ROLLED_BACK;
            for (Map.Entry<String, String> write : w.writes.entrySet()) {
                byte[] q = qualifier(write.getKey());
                byte[] stored = write.getValue() == null ? CellEncoding.tombstoneQualifier(q) : q;
                for (Replica r : replicas) {
                    r.deleteVersion(row(write.getKey()), stored, w.start);
                }
            }
        }

        /** A TSO restart: running writers can never commit (their epoch is gone); readers learn the new epoch. */
        void restartTso() {
            for (Writer w : writers) {
                if (w.state == State.RUNNING) {
                    w.state = State.CRASHED;
                }
            }
            epoch = clock;
        }

        void fastPathWrite() throws IOException {
            int row = random.nextInt(ROWS);
            Model expected = modelOfLatest(row);
            String answers = null;
            for (Replica r : replicas) {
                CommittedRow committed = CommittedRow.read(r.store, r.commitTable, rowKey(row));
                String answer = show(committed) + refusal(committed);
                if (answers != null) {
                    assertEquals(answers, answer, where + ": fast-path reads of row " + row + " differ on " + r.name);
                }
                answers = answer;
                assertEquals(expected.values + " v" + expected.version + (expected.hasPending() ? " refused" : ""),
                        answer, where + ": fast-path read of row " + row + " on " + r.name);
            }
            if (expected.hasPending()) {
                return;
            }
            long version = Math.max(expected.version, clock) + 1;
            if (!Timestamps.isFastPathVersion(version)) {
                return;
            }
            Writer w = new Writer(version);
            w.commit = version;
            w.state = State.COMMITTED;
            String cell = cell(row, QUALIFIERS[random.nextInt(QUALIFIERS.length)]);
            w.writes.put(cell, write(version, cell, random.nextInt(4) == 0 ? null : "fp" + values++, true));
            writers.add(w);
            fastPathWrites++;
        }

        /**
         * A plain fast-path read: the latest committed row, once every undecided writer that started at or below its
         * version is invalidated (none of them has a record in this history, so the version does not move).
         */
        void fastPathRead() throws IOException {
            int row = random.nextInt(ROWS);
            Model expected = modelOfLatest(row);
            for (Replica r : replicas) {
                CommittedRow committed = CommittedRow.readSettled(r.store, r.commitTable, rowKey(row));
                assertEquals(expected.values + " v" + expected.version, show(committed), where
                        + ": fast-path get of row " + row + " on " + r.name);
                for (long writer : expected.pendingWriters) {
                    assertEquals(writer <= expected.version, r.commitTable.lookup(writer).isInvalidated(), where
                            + ": fast-path get of row " + row + " at version " + expected.version + " on " + r.name
                            + ", undecided writer " + writer);
                }
            }
            for (long writer : expected.pendingWriters) {
                if (writer <= expected.version && invalidatedByFastPath.add(writer)) {
                    invalidatedByFastPathReads++;
                }
            }
            fastPathReads++;
            assertReplicasAgreeOnDecisions();
        }

        void read() throws IOException {
            long snapshot = nextTimestamp();
            long readerEpoch = mode == CommitMode.BATCHED ? epoch : random.nextBoolean() ? epoch : 0;
            ReaderContext reader = new ReaderContext(snapshot, mode, readerEpoch);
            Writer own = new Writer(snapshot);
            if (random.nextInt(3) == 0) {
                String cell = cell(random.nextInt(ROWS), QUALIFIERS[random.nextInt(QUALIFIERS.length)]);
                own.writes.put(cell, write(snapshot, cell, random.nextBoolean() ? null : "own" + values++, false));
            }
            for (int row = 0; row < ROWS; row++) {
                String expected = modelOfSnapshot(row, snapshot, own);
                for (Replica r : replicas) {
                    SnapshotQuery query = new SnapshotQuery(reader, r.commitTable, r.store, new DecidedWriters());
                    List<Cell> stored = Rows.storedRow(r.store, rowKey(row), snapshot);
                    assertEquals(expected, show(query.visibleCells(stored)), where + ": snapshot " + snapshot
                            + " (epoch " + readerEpoch + ") of row " + row + " on " + r.name);
                }
            }
            reads++;
            assertReplicasAgreeOnDecisions();
            rollBack(own);
        }

        void assertReplicasAgreeOnDecisions() throws IOException {
            for (Writer w : writers) {
                CommitState first = replicas.get(0).commitTable.lookup(w.start);
                for (Replica r : replicas) {
                    assertEquals(first, r.commitTable.lookup(w.start), where + ": the commit table of " + r.name
                            + " says otherwise about writer " + w.start);
                }
            }
        }

        /** What a snapshot sees: per column, the newest version that is the reader's own or committed before it. */
        String modelOfSnapshot(int row, long snapshot, Writer own) {
            List<String> cells = new ArrayList<>();
            for (String q : QUALIFIERS) {
                String cell = cell(row, q);
                Writer newest = own.writes.containsKey(cell) ? own : best(cell, snapshot);
                if (newest != null && newest.writes.get(cell) != null) {
                    cells.add(q + "@" + newest.start + "=" + newest.writes.get(cell));
                }
            }
            return String.join(" ", cells);
        }

        /** The newest version of the cell whose writer committed before {@code snapshot}. */
        Writer best(String cell, long snapshot) {
            Writer best = null;
            for (Writer w : writers) {
                if (w.writes.containsKey(cell) && w.state == State.COMMITTED && w.commit < snapshot
                        && (best == null || w.start > best.start)) {
                    best = w;
                }
            }
            return best;
        }

        /** The latest committed state of a row, and whether the fast path must refuse to write it. */
        Model modelOfLatest(int row) throws IOException {
            Model m = new Model();
            long newestFastPath = 0;
            for (Writer w : writers) {
                for (String cell : w.writes.keySet()) {
                    if (rowOf(cell) == row && w.state == State.COMMITTED) {
                        m.version = Math.max(m.version, w.commit);
                        if ((w.start & Timestamps.LOW_MASK) != 0) {
                            newestFastPath = Math.max(newestFastPath, w.start);
                        }
                    }
                }
            }
            List<String> cells = new ArrayList<>();
            for (String q : QUALIFIERS) {
                String cell = cell(row, q);
                Writer newest = best(cell, Long.MAX_VALUE);
                if (newest != null && newest.writes.get(cell) != null) {
                    cells.add(q + "@" + newest.start + "=" + newest.writes.get(cell));
                }
                for (Writer w : writers) {
                    boolean undecided = w.state == State.RUNNING || w.state == State.COMMITTING
                            || w.state == State.CRASHED;
                    if (undecided && w.writes.containsKey(cell) && w.start > newestFastPath
                            && (newest == null || w.start > newest.start)
                            && replicas.get(0).commitTable.lookup(w.start).isAbsent()) {
                        m.pendingWriters.add(w.start);
                    }
                }
            }
            m.values = String.join(" ", cells);
            return m;
        }

        Writer pick(State state) {
            List<Writer> candidates = new ArrayList<>();
            for (Writer w : writers) {
                if (w.state == state) {
                    candidates.add(w);
                }
            }
            return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
        }

        byte[] rowKey(int row) {
            return Bytes.toBytes(rowPrefix + "r" + row);
        }

        byte[] row(String cell) {
            return rowKey(rowOf(cell));
        }
    }

    private static final class Model {
        String values;
        long version;
        /** Undecided writers whose write is newer than the row's newest fast-path version and committed value. */
        final Set<Long> pendingWriters = new TreeSet<>();

        boolean hasPending() {
            return !pendingWriters.isEmpty();
        }
    }

    private static String show(List<Cell> cells) {
        List<String> shown = new ArrayList<>();
        for (Cell c : cells) {
            shown.add(Bytes.toString(CellUtil.cloneQualifier(c)) + "@" + c.getTimestamp() + "="
                    + Bytes.toString(CellUtil.cloneValue(c)));
        }
        return String.join(" ", shown);
    }

    private static String show(CommittedRow row) {
        Map<String, Cell> byQualifier = new TreeMap<>();
        for (Cell c : row.values()) {
            byQualifier.put(Bytes.toString(CellUtil.cloneQualifier(c)), c);
        }
        return show(new ArrayList<>(byQualifier.values())) + " v" + row.version();
    }

    private static String refusal(CommittedRow row) {
        try {
            row.requireNoPendingWriter(Bytes.toBytes("row"), "write");
            return "";
        } catch (FastPathConflictException e) {
            return " refused";
        }
    }

    private static String cell(int row, String qualifier) {
        return "r" + row + "/" + qualifier;
    }

    private static int rowOf(String cell) {
        return Integer.parseInt(cell.substring(1, cell.indexOf('/')));
    }

    private static byte[] qualifier(String cell) {
        return Bytes.toBytes(cell.substring(cell.indexOf('/') + 1));
    }
}
