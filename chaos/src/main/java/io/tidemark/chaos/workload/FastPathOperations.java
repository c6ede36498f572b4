package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.HistoryLines;
import io.tidemark.chaos.history.HistoryLog;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Told;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * Runs random fast-path operations (get, put, delete, read-for-update + conditional write, check-and-mutate,
 * increment) and records each as a one-row transaction: what it read and at which version, what it wrote, and what
 * it was told. A write's version is the table's session timestamp right after it, which is exactly the minted
 * version (every version is minted above the session).
 */
public final class FastPathOperations {

    /** What a check-and-mutate that found another value answers instead of a version. */
    private static final long NOT_APPLIED = -1;

    private final FastPathTable table;
    private final KeySpace keys;
    private final HistoryLog log;
    private final Random random;
    /** The last value this client saw per key, the expected value of its next check-and-mutate there. */
    private final Map<Key, String> lastSeen = new HashMap<>();

    FastPathOperations(FastPathTable table, KeySpace keys, HistoryLog log, Random random) {
        this.table = table;
        this.keys = keys;
        this.log = log;
        this.random = random;
    }

    void run(long seq) {
        String row = keys.rows().get(random.nextInt(keys.rows().size()));
        int dice = random.nextInt(100);
        if (dice < 30) {
            get(seq, row);
        } else if (dice < 50) {
            put(seq, row);
        } else if (dice < 57) {
            delete(seq, row);
        } else if (dice < 72) {
            conditionalWrite(seq, row);
        } else if (dice < 86) {
            checkAndMutate(seq, row);
        } else {
            increment(seq, row);
        }
    }

    private void get(long seq, String row) {
        VersionedResult r;
        try {
            r = table.get(new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY));
        } catch (IOException e) {
            return;
        }
        recordRowRead(log.fastPath(seq, "get"), keys, row, r).forEach(lastSeen::put);
    }

    /** Records that a fast-path read saw {@code row} as {@code r} shows it; returns what it saw per key. */
    public static Map<Key, String> recordRowRead(HistoryLog.Recorder rec, KeySpace keys, String row, VersionedResult r) {
        rec.readAt(r.version());
        Map<Key, String> seen = new HashMap<>();
        for (Key key : keys.keysOf(row)) {
            String value = ChaosTable.valueOf(keys, r.result(), key);
            seen.put(key, value);
            rec.read(key, value);
        }
        return seen;
    }

    private void put(long seq, String row) {
        HistoryLog.Recorder rec = log.fastPath(seq, "put");
        Put put = new Put(ChaosTable.row(row));
        for (String column : keys.valueColumns()) {
            if (random.nextBoolean() || column.equals(keys.valueColumns().get(0))) {
                Key key = new Key(row, column);
                String value = uniqueValue(seq, column);
                rec.write(key, value);
                put.addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(column), ChaosTable.encode(keys, key, value));
            }
        }
        tell(rec, () -> table.put(put));
    }

    private void delete(long seq, String row) {
        HistoryLog.Recorder rec = log.fastPath(seq, "delete");
        String column = randomValueColumn();
        rec.write(new Key(row, column), null);
        tell(rec, () -> table.delete(new Delete(ChaosTable.row(row)).addColumns(ChaosTable.FAMILY,
                ChaosTable.qualifier(column))));
    }

    /** The paper's br + wc: read the row for update, then write it only if nobody wrote it since. */
    private void conditionalWrite(long seq, String row) {
        VersionedResult read;
        try {
            read = table.getForUpdate(new Get(ChaosTable.row(row)).addFamily(ChaosTable.FAMILY));
        } catch (IOException e) {
            return;
        }
        HistoryLog.Recorder rec = log.fastPath(seq, "conditional write");
        recordRowRead(rec, keys, row, read);
        Key key = new Key(row, randomValueColumn());
        Put put = valuePut(rec, key, uniqueValue(seq, key.column()));
        tell(rec, () -> table.putIfUnchanged(put, read.version()));
    }

    /** Writes one value column if another (or the same) still holds what this client last saw there. */
    private void checkAndMutate(long seq, String row) {
        Key checked = new Key(row, randomValueColumn());
        Key written = new Key(row, randomValueColumn());
        String expected = lastSeen.get(checked);
        HistoryLog.Recorder rec = log.fastPath(seq, "check-and-mutate");
        String value = uniqueValue(seq, written.column());
        Put put = valuePut(rec, written, value);
        tell(rec, () -> {
            boolean applied = table.checkAndMutate(ChaosTable.row(row), ChaosTable.FAMILY,
                    ChaosTable.qualifier(checked.column()), expected == null ? null : ChaosTable.encode(keys, checked,
                            expected), put);
            if (!applied) {
                lastSeen.remove(checked);
                return NOT_APPLIED;
            }
            // Applied: the row held the expected value at the version the write committed at.
            rec.read(checked, expected);
            lastSeen.put(written, value);
            return table.sessionTimestamp();
        });
    }

    private void increment(long seq, String row) {
        Key counter = new Key(row, keys.counterColumn());
        HistoryLog.Recorder rec = log.fastPath(seq, "increment");
        rec.write(counter, HistoryLines.NOT_YET_KNOWN);
        tell(rec, () -> {
            long value = table.increment(ChaosTable.row(row), ChaosTable.FAMILY,
                    ChaosTable.qualifier(counter.column()), 1);
            // An increment read the counter and wrote it plus one, atomically at its version.
            rec.read(counter, value == 1 ? null : KeySpace.counterValue(value - 1));
            rec.write(counter, KeySpace.counterValue(value));
            return table.sessionTimestamp();
        });
    }

    /** A Put of {@code value} into {@code key}, recorded before it is sent. */
    private Put valuePut(HistoryLog.Recorder rec, Key key, String value) {
        rec.write(key, value);
        return new Put(ChaosTable.row(key.row())).addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(key.column()),
                ChaosTable.encode(keys, key, value));
    }

    private String uniqueValue(long seq, String column) {
        return log.client() + "." + seq + ".0" + column;
    }

    private String randomValueColumn() {
        return keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
    }

    /** Runs a fast-path write and records what it was told: its version, refused, not applied, or unknown. */
    private static void tell(HistoryLog.Recorder rec, Write write) {
        try {
            long version = write.run();
            rec.told(version == NOT_APPLIED ? Told.of(Told.Kind.NOT_APPLIED, "the checked column held another value")
                    : Told.committed(version));
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
    }

    /** A fast-path write; returns the version it committed at, or {@link #NOT_APPLIED}. */
    private interface Write {
        long run() throws IOException;
    }
}
