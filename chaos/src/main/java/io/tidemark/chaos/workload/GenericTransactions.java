package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.HistoryLog;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Timing;
import io.tidemark.chaos.history.Told;
import io.tidemark.client.AsyncTransactionManager;
import io.tidemark.client.AsyncTransactionalTable;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionException;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import io.tidemark.concurrent.Futures;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs random generic transactions and records each: its start timestamp, every read (what it returned), every
 * write (before it is sent, so a write that reached HBase is always in the history), every scan, and what commit
 * answered. Some transactions are long-running readers, some slow writers ({@link OperationMix}); some short ones
 * run through the non-blocking API.
 */
final class GenericTransactions {

    /** The longest pause between the columns of a row written column by column. */
    private static final int MAX_PAUSE_BETWEEN_COLUMNS_MS = 100;
    /** How often a pause of a long reader or slow writer looks whether the run has ended. */
    private static final long PAUSE_STEP_MILLIS = 50;

    private final ClientManagers managers;
    private final TTable table;
    private final KeySpace keys;
    private final WorkloadSettings settings;
    private final HistoryLog log;
    private final Random random;

    GenericTransactions(ClientManagers managers, TTable table, WorkloadSettings settings, HistoryLog log,
                        Random random) {
        this.managers = managers;
        this.table = table;
        this.keys = settings.keySpace();
        this.settings = settings;
        this.log = log;
        this.random = random;
    }

    /**
     * Runs one transaction as transaction number {@code seq} of this client. When none can begin (the TSO is down),
     * nothing happened and nothing is recorded.
     */
    void run(long seq, BooleanSupplier keepGoing) throws InterruptedException {
        double kind = random.nextDouble();
        boolean longReader = kind < settings.mix().longReaders();
        boolean slowWriter = !longReader && kind < settings.mix().longReaders() + settings.mix().slowWriters();
        TransactionManager lazy = managers.lazy();
        if (!longReader && !slowWriter && lazy != null && random.nextInt(4) == 0) {
            runWriteOnly(lazy, seq);
            return;
        }
        if (!longReader && !slowWriter && random.nextInt(5) == 0) {
            runNonBlocking(seq);
            return;
        }
        // Slow writers send every write at once, so that readers meet them running; the others keep their writes
        // half of the time, and commit in one region's request when they wrote one region.
        TransactionManager tm = slowWriter || random.nextBoolean() ? managers.sentAtOnce() : managers.inRegion();
        Transaction tx;
        long beginAsked = Timing.nowMicros();
        try {
            tx = tm.begin();
        } catch (TransactionException e) {
            Thread.sleep(50);
            return;
        }
        HistoryLog.Recorder rec = log.generic(seq, tx.startTimestamp(), beginAsked);
        boolean committing = false;
        try {
            if (longReader) {
                readSlowly(tx, rec, keepGoing);
            } else {
                int ops = 1 + random.nextInt(settings.maxOpsPerTransaction());
                for (int i = 0; i < ops; i++) {
                    if (slowWriter) {
                        put(tx, rec, randomRow(), seq, i);
                        pauseWhileRunning(300 + random.nextInt(900), keepGoing);
                    } else {
                        step(tx, rec, seq, i);
                    }
                }
            }
            committing = true;
            rec.committing();
            tm.commit(tx);
            rec.told(Told.committed(tx.commitTimestamp()));
        } catch (TransactionAbortedException e) {
            rec.told(Told.of(Told.Kind.ABORTED, e.reason().name()));
        } catch (IOException | RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (committing) {
                rec.told(Told.of(Told.Kind.UNKNOWN, describe(e)));
            } else {
                rollbackQuietly(tm, tx);
                rec.told(Told.of(Told.Kind.FAILED, describe(e)));
            }
        }
    }

    /**
     * A transaction begun lazily that only puts, or half of the time first reads the row it puts first (a
     * read-modify-write: the read goes to the row's region with no BEGIN): it commits in its region without any TSO
     * round trip when its rows are in one region, nobody else is writing them and the row it read did not change, and
     * begins at its commit otherwise. Its start is recorded once the commit answered (the version it committed at, when
     * it never began); not for one that aborted because the row it read changed before it began, whose read no
     * snapshot holds.
     */
    private void runWriteOnly(TransactionManager lazy, long seq) throws InterruptedException {
        Transaction tx;
        try {
            tx = lazy.begin();
        } catch (TransactionException closed) {
            return; // the manager is closing: the run ends
        }
        HistoryLog.Recorder rec = log.lazyGeneric(seq);
        boolean committing = false;
        try {
            int puts = 1 + random.nextInt(settings.maxOpsPerTransaction());
            String first = randomRow();
            if (random.nextBoolean()) {
                get(tx, rec, first);
            }
            for (int i = 0; i < puts; i++) {
                put(tx, rec, i == 0 ? first : randomRow(), seq, i);
            }
            committing = true;
            rec.committing();
            lazy.commit(tx);
            recordStart(tx, rec);
            rec.told(Told.committed(tx.commitTimestamp()));
        } catch (TransactionAbortedException e) {
            if (e.reason() != TransactionAbortedException.Reason.READ_CHANGED) {
                recordStart(tx, rec);
            }
            rec.told(Told.of(Told.Kind.ABORTED, e.reason().name()));
        } catch (IOException | RuntimeException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            if (committing) {
                recordStart(tx, rec);
                rec.told(Told.of(Told.Kind.UNKNOWN, describe(e)));
            } else {
                rollbackQuietly(lazy, tx);
                rec.told(Told.of(Told.Kind.FAILED, describe(e)));
            }
        }
    }

    /**
     * A short transaction through the non-blocking API ({@link AsyncTransactionManager}), over a manager that keeps
     * its writes or one that sends them at once. Its writes are issued without waiting for them (the transaction
     * orders its own operations: a later read of the row sees them, commit waits for them); each read is waited for
     * before the next operation is issued, so the history has the operations in the order they were issued.
     */
    private void runNonBlocking(long seq) throws InterruptedException {
        AsyncTransactionManager tm = managers.nonBlocking(random.nextBoolean());
        Transaction tx;
        long beginAsked = Timing.nowMicros();
        try {
            tx = Futures.await(tm.begin(), "BEGIN");
        } catch (IOException e) {
            Thread.sleep(50);
            return;
        }
        HistoryLog.Recorder rec = log.generic(seq, tx.startTimestamp(), beginAsked);
        boolean committing = false;
        try {
            AsyncTransactionalTable async = Futures.await(tm.table(table.getName()), "the table check");
            int ops = 1 + random.nextInt(settings.maxOpsPerTransaction());
            for (int i = 0; i < ops; i++) {
                nonBlockingStep(async, tx, rec, seq, i);
            }
            committing = true;
            rec.committing();
            Futures.await(tm.commit(tx), "commit");
            rec.told(Told.committed(tx.commitTimestamp()));
        } catch (TransactionAbortedException e) {
            rec.told(Told.of(Told.Kind.ABORTED, e.reason().name()));
        } catch (IOException | RuntimeException e) {
            if (committing) {
                rec.told(Told.of(Told.Kind.UNKNOWN, describe(e)));
            } else {
                if (tx.state() == TransactionState.RUNNING) {
                    // Its outcome is known without waiting: it never asked to commit.
                    tm.rollback(tx);
                }
                rec.told(Told.of(Told.Kind.FAILED, describe(e)));
            }
        }
    }

    private void nonBlockingStep(AsyncTransactionalTable async, Transaction tx, HistoryLog.Recorder rec, long seq,
            int index) throws IOException {
        int dice = random.nextInt(100);
        String row = randomRow();
        if (dice < 35) {
            Result r = Futures.await(async.get(tx, new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY)), "get");
            recordRead(rec, row, r);
        } else if (dice < 60) {
            // Not waited for: a failed write fails the commit.
            async.put(tx, wholeRowOrOneColumn(rec, row, seq, index));
        } else if (dice < 70) {
            async.delete(tx, oneColumnDeleted(rec, row));
        } else if (dice < 82) {
            Key counter = new Key(row, keys.counterColumn());
            Result r = Futures.await(async.get(tx, counterGet(counter)), "get");
            async.put(tx, incremented(rec, counter, r));
        } else {
            int from = random.nextInt(keys.rows().size());
            int to = from + 1 + random.nextInt(keys.rows().size() - from);
            ScanPlan plan = scanPlan(from, to, random.nextInt(4) == 0);
            plan.record(rec, Futures.await(async.scanAll(tx, plan.scan), "scan"));
        }
    }

    /** Records the start a lazily begun transaction ended up with, if it has one (asking never begins it then). */
    private static void recordStart(Transaction tx, HistoryLog.Recorder rec) {
        if (tx.state() != TransactionState.RUNNING && tx.startTimestamp() > 0) {
            rec.began(tx.startTimestamp());
        }
    }

    /** A read-only transaction that keeps its snapshot for seconds: full scans and gets with pauses between. */
    private void readSlowly(Transaction tx, HistoryLog.Recorder rec, BooleanSupplier keepGoing)
            throws IOException, InterruptedException {
        int rounds = 2 + random.nextInt(3);
        for (int i = 0; i < rounds && keepGoing.getAsBoolean(); i++) {
            scan(tx, rec, 0, keys.rows().size(), false);
            get(tx, rec, randomRow());
            pauseWhileRunning(500 + random.nextInt(1500), keepGoing);
        }
    }

    /**
     * Pauses for {@code millis}, cut short when the run ends: the run waits for every client to stop after its
     * deadline, and a pause of a long reader or slow writer would add up to seconds to every run.
     */
    private static void pauseWhileRunning(long millis, BooleanSupplier keepGoing) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (long left = millis; left > 0 && keepGoing.getAsBoolean();
             left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())) {
            Thread.sleep(Math.min(left, PAUSE_STEP_MILLIS));
        }
    }

    private void step(Transaction tx, HistoryLog.Recorder rec, long seq, int index)
            throws IOException, InterruptedException {
        int dice = random.nextInt(100);
        String row = randomRow();
        if (dice < 35) {
            get(tx, rec, row);
        } else if (dice < 60) {
            put(tx, rec, row, seq, index);
        } else if (dice < 70) {
            delete(tx, rec, row);
        } else if (dice < 82) {
            increment(tx, rec, row);
        } else {
            int from = random.nextInt(keys.rows().size());
            int to = from + 1 + random.nextInt(keys.rows().size() - from);
            scan(tx, rec, from, to, random.nextInt(4) == 0);
        }
    }

    private Result get(Transaction tx, HistoryLog.Recorder rec, String row) throws IOException {
        Result r = table.get(tx, new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY));
        recordRead(rec, row, r);
        return r;
    }

    private void recordRead(HistoryLog.Recorder rec, String row, Result r) {
        for (Key key : keys.keysOf(row)) {
            rec.read(key, ChaosTable.valueOf(keys, r, key));
        }
    }

    /**
     * Puts one value column of the row, or all of them: in one Put, or, half the time, column by column with a short
     * pause between, as applications that write a row in several mutations do; a reader of the row then meets the
     * transaction half-written (issue 31).
     */
    private void put(Transaction tx, HistoryLog.Recorder rec, String row, long seq, int index)
            throws IOException, InterruptedException {
        List<String> columns = keys.valueColumns();
        int which = random.nextInt(columns.size() + 1);
        if (which < columns.size() || random.nextBoolean()) {
            table.put(tx, valuesPut(rec, row, seq, index, which));
            return;
        }
        for (int c = 0; c < columns.size(); c++) {
            table.put(tx, valuesPut(rec, row, seq, index, c));
            Thread.sleep(random.nextInt(MAX_PAUSE_BETWEEN_COLUMNS_MS));
        }
    }

    /** A Put of one value column of the row, or of all of them, recorded. */
    private Put wholeRowOrOneColumn(HistoryLog.Recorder rec, String row, long seq, int index) {
        return valuesPut(rec, row, seq, index, random.nextInt(keys.valueColumns().size() + 1));
    }

    /** A Put of value column {@code which} of the row, or of every one when it is past the last; recorded. */
    private Put valuesPut(HistoryLog.Recorder rec, String row, long seq, int index, int which) {
        List<String> columns = keys.valueColumns();
        Put put = new Put(ChaosTable.row(row));
        for (int c = 0; c < columns.size(); c++) {
            if (which == columns.size() || which == c) {
                Key key = new Key(row, columns.get(c));
                String value = log.client() + "." + seq + "." + index + columns.get(c);
                rec.write(key, value);
                put.addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(key.column()), ChaosTable.encode(keys, key,
                        value));
            }
        }
        return put;
    }

    private void delete(Transaction tx, HistoryLog.Recorder rec, String row) throws IOException {
        table.delete(tx, oneColumnDeleted(rec, row));
    }

    /** A Delete of one value column of the row, recorded. */
    private Delete oneColumnDeleted(HistoryLog.Recorder rec, String row) {
        String column = keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
        rec.write(new Key(row, column), null);
        return new Delete(ChaosTable.row(row)).addColumns(ChaosTable.FAMILY, ChaosTable.qualifier(column));
    }

    /** Read-modify-write of the row's counter: first committer wins must keep every increment. */
    private void increment(Transaction tx, HistoryLog.Recorder rec, String row) throws IOException {
        Key counter = new Key(row, keys.counterColumn());
        table.put(tx, incremented(rec, counter, table.get(tx, counterGet(counter))));
    }

    private static Get counterGet(Key counter) {
        return new Get(ChaosTable.row(counter.row())).addColumn(ChaosTable.FAMILY,
                ChaosTable.qualifier(counter.column()));
    }

    /** The counter read in {@code r}, recorded, and a Put of the next value, recorded. */
    private Put incremented(HistoryLog.Recorder rec, Key counter, Result r) {
        String current = ChaosTable.valueOf(keys, r, counter);
        rec.read(counter, current);
        String next = KeySpace.counterValue(KeySpace.counterOf(current) + 1);
        rec.write(counter, next);
        return new Put(ChaosTable.row(counter.row())).addColumn(ChaosTable.FAMILY,
                ChaosTable.qualifier(counter.column()), ChaosTable.encode(keys, counter, next));
    }

    /**
     * Scans rows {@code [from, to)} by index, forwards or backwards, sometimes with a row limit; records the range
     * the scan actually covered (up to the last row when the limit stopped it).
     */
    private void scan(Transaction tx, HistoryLog.Recorder rec, int from, int to, boolean limited)
            throws IOException {
        ScanPlan plan = scanPlan(from, to, limited);
        try (ResultScanner scanner = table.getScanner(tx, plan.scan)) {
            plan.record(rec, scanner);
        }
    }

    private ScanPlan scanPlan(int from, int to, boolean limited) {
        return new ScanPlan(keys, from, to, random.nextInt(4) == 0, limited ? 1 + random.nextInt(3) : 0);
    }

    /** A scan of rows {@code [from, to)} by index, and how to record what it returned. */
    private static final class ScanPlan {

        final Scan scan;
        private final KeySpace keys;
        private final int from;
        private final int to;
        private final boolean reversed;
        private final int limit;

        ScanPlan(KeySpace keys, int from, int to, boolean reversed, int limit) {
            this.keys = keys;
            this.from = from;
            this.to = to;
            this.reversed = reversed;
            this.limit = limit;
            List<String> rows = keys.rows();
            scan = new Scan().addFamily(ChaosTable.FAMILY);
            if (reversed) {
                scan.setReversed(true).withStartRow(ChaosTable.row(rows.get(to - 1)), true)
                        .withStopRow(ChaosTable.row(rows.get(from)), true);
            } else {
                scan.withStartRow(ChaosTable.row(rows.get(from)), true);
                if (to < rows.size()) {
                    scan.withStopRow(ChaosTable.row(rows.get(to)), false);
                }
            }
            if (limit > 0) {
                scan.setLimit(limit);
            }
        }

        /** Records the rows returned and the range they cover (up to the last row when the limit stopped it). */
        void record(HistoryLog.Recorder rec, Iterable<Result> results) {
            List<String> rows = keys.rows();
            Map<Key, String> seen = new TreeMap<>();
            int returned = 0;
            String last = null;
            for (Result r : results) {
                String row = new String(r.getRow(), java.nio.charset.StandardCharsets.UTF_8);
                for (Key key : keys.keysOf(row)) {
                    String value = ChaosTable.valueOf(keys, r, key);
                    if (value != null) {
                        seen.put(key, value);
                    }
                }
                returned++;
                last = row;
            }
            String fromRow = rows.get(from);
            String toRow = to < rows.size() ? rows.get(to) : null;
            if (limit > 0 && returned >= limit) {
                if (reversed) {
                    fromRow = last;
                } else {
                    int next = rows.indexOf(last) + 1;
                    toRow = next < rows.size() ? rows.get(next) : null;
                }
            }
            rec.scan(fromRow, toRow, seen);
        }
    }

    private String randomRow() {
        return keys.rows().get(random.nextInt(keys.rows().size()));
    }

    private static void rollbackQuietly(TransactionManager tm, Transaction tx) {
        try {
            if (tx.state() == io.tidemark.client.TransactionState.RUNNING) {
                tm.rollback(tx);
            }
        } catch (RuntimeException e) {
            // The transaction never asked to commit, so it cannot commit; its cells are only left to tidy up.
        }
    }

    static String describe(Throwable e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        if (message.length() > 160) {
            message = message.substring(0, 160) + "...";
        }
        return e.getClass().getSimpleName() + ": " + message;
    }
}
