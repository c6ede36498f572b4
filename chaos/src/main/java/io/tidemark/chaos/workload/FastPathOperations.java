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
final class FastPathOperations {

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
        HistoryLog.Recorder rec = log.fastPath(seq, "get");
        rec.readAt(r.version());
        for (Key key : keys.keysOf(row)) {
            String value = ChaosTable.valueOf(keys, r.result(), key);
            lastSeen.put(key, value);
            rec.read(key, value);
        }
    }

    private void put(long seq, String row) {
        HistoryLog.Recorder rec = log.fastPath(seq, "put");
        Put put = new Put(ChaosTable.row(row));
        for (String column : keys.valueColumns()) {
            if (random.nextBoolean() || column.equals(keys.valueColumns().get(0))) {
                Key key = new Key(row, column);
                String value = log.client() + "." + seq + ".0" + column;
                rec.write(key, value);
                put.addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(column), ChaosTable.encode(keys, key, value));
            }
        }
        try {
            rec.told(Told.committed(table.put(put)));
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
    }

    private void delete(long seq, String row) {
        HistoryLog.Recorder rec = log.fastPath(seq, "delete");
        String column = keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
        rec.write(new Key(row, column), null);
        try {
            rec.told(Told.committed(table.delete(new Delete(ChaosTable.row(row)).addColumns(ChaosTable.FAMILY,
                    ChaosTable.qualifier(column)))));
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
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
        rec.readAt(read.version());
        for (Key key : keys.keysOf(row)) {
            rec.read(key, ChaosTable.valueOf(keys, read.result(), key));
        }
        String column = keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
        Key key = new Key(row, column);
        String value = log.client() + "." + seq + ".0" + column;
        rec.write(key, value);
        Put put = new Put(ChaosTable.row(row)).addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(column),
                ChaosTable.encode(keys, key, value));
        try {
            rec.told(Told.committed(table.putIfUnchanged(put, read.version())));
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
    }

    /** Writes one value column if another (or the same) still holds what this client last saw there. */
    private void checkAndMutate(long seq, String row) {
        String checked = keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
        String written = keys.valueColumns().get(random.nextInt(keys.valueColumns().size()));
        Key checkedKey = new Key(row, checked);
        Key writtenKey = new Key(row, written);
        String expected = lastSeen.get(checkedKey);
        String value = log.client() + "." + seq + ".0" + written;
        HistoryLog.Recorder rec = log.fastPath(seq, "check-and-mutate");
        rec.write(writtenKey, value);
        Put put = new Put(ChaosTable.row(row)).addColumn(ChaosTable.FAMILY, ChaosTable.qualifier(written),
                ChaosTable.encode(keys, writtenKey, value));
        try {
            boolean applied = table.checkAndMutate(ChaosTable.row(row), ChaosTable.FAMILY,
                    ChaosTable.qualifier(checked), expected == null ? null : ChaosTable.encode(keys, checkedKey,
                            expected), put);
            if (applied) {
                rec.read(checkedKey, expected);
                rec.told(Told.committed(table.sessionTimestamp()));
                lastSeen.put(writtenKey, value);
            } else {
                rec.told(Told.of(Told.Kind.NOT_APPLIED, checkedKey + " was not " + expected));
                lastSeen.remove(checkedKey);
            }
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
    }

    private void increment(long seq, String row) {
        Key counter = new Key(row, keys.counterColumn());
        HistoryLog.Recorder rec = log.fastPath(seq, "increment");
        rec.write(counter, HistoryLines.NOT_YET_KNOWN);
        try {
            long value = table.increment(ChaosTable.row(row), ChaosTable.FAMILY,
                    ChaosTable.qualifier(counter.column()), 1);
            long version = table.sessionTimestamp();
            rec.read(counter, value == 1 ? null : KeySpace.counterValue(value - 1));
            rec.write(counter, KeySpace.counterValue(value));
            rec.told(Told.committed(version));
        } catch (FastPathConflictException e) {
            rec.told(Told.of(Told.Kind.REFUSED, String.valueOf(e.getMessage())));
        } catch (IOException | RuntimeException e) {
            rec.told(Told.of(Told.Kind.UNKNOWN, GenericTransactions.describe(e)));
        }
    }
}
