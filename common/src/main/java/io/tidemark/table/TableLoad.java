package io.tidemark.table;

import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Whether a table is being bulk loaded, and at which commit timestamp, as its descriptor records it
 * ({@value TransactionalTableLayout#LOADING_AT_KEY}; docs/api.md, "Bulk loads"). Shared by the admin that runs loads,
 * the client's table check and the region servers' load guard, so they read the attribute alike.
 */
public final class TableLoad {

    /**
     * Operation attribute marking a loader's Put: the load's commit timestamp L, 8 bytes big-endian. The load guard
     * lets a marked Put through exactly when its table is loading at L, so a loader of a load that has finished (or
     * was superseded) cannot add cells that snapshots taken since would see appear.
     */
    public static final String WRITE_ATTRIBUTE = "tm.load";

    /** No load runs. */
    public static final TableLoad NONE = new TableLoad(false, 0);

    private final boolean loading;
    private final long commitTimestamp;

    private TableLoad(boolean loading, long commitTimestamp) {
        this.loading = loading;
        this.commitTimestamp = commitTimestamp;
    }

    /** A load whose commit timestamp is {@code commitTimestamp}, or 0 when it is not taken yet. */
    public static TableLoad at(long commitTimestamp) {
        if (commitTimestamp < 0) {
            throw new IllegalArgumentException("a load's commit timestamp is not negative, was " + commitTimestamp);
        }
        return new TableLoad(true, commitTimestamp);
    }

    /**
     * The load a table descriptor records.
     *
     * @throws IllegalArgumentException when {@value TransactionalTableLayout#LOADING_AT_KEY} holds no timestamp
     */
    public static TableLoad of(TableDescriptor table) {
        String value = table.getValue(TransactionalTableLayout.LOADING_AT_KEY);
        if (value == null) {
            return NONE;
        }
        try {
            return at(Long.parseLong(value.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + table.getTableName().getNameAsString() + " has '"
                    + TransactionalTableLayout.LOADING_AT_KEY + "' => '" + value + "', which is no load commit"
                    + " timestamp (a non-negative decimal number written by TidemarkAdmin.beginLoad)", e);
        }
    }

    /** Whether a load runs: transactional reads and writes of the table are refused. */
    public boolean isLoading() {
        return loading;
    }

    /** The load's commit timestamp L, or 0 when none was taken yet (or no load runs). */
    public long commitTimestamp() {
        return commitTimestamp;
    }

    /** Whether {@code put}, marked with {@link #WRITE_ATTRIBUTE}, belongs to this load. */
    public boolean accepts(OperationWithAttributes put) {
        byte[] value = put.getAttribute(WRITE_ATTRIBUTE);
        return loading && commitTimestamp != 0 && value != null && value.length == Bytes.SIZEOF_LONG
                && Bytes.toLong(value) == commitTimestamp;
    }

    /** Marks {@code put} as a write of the load at {@code commitTimestamp}. */
    public static void mark(OperationWithAttributes put, long commitTimestamp) {
        put.setAttribute(WRITE_ATTRIBUTE, Bytes.toBytes(commitTimestamp));
    }

    /** Whether {@code operation} carries {@link #WRITE_ATTRIBUTE}. */
    public static boolean isMarked(OperationWithAttributes operation) {
        return operation.getAttribute(WRITE_ATTRIBUTE) != null;
    }

    @Override
    public String toString() {
        return !loading ? "not loading" : commitTimestamp == 0 ? "loading, commit timestamp not taken yet"
                : "loading at " + commitTimestamp;
    }
}
