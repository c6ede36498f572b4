package io.tidemark.ycsb;

import io.tidemark.client.TransactionAbortedException;
import io.tidemark.fastpath.FastPathConflictException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;

/**
 * YCSB binding for Tidemark ({@code -db io.tidemark.ycsb.TidemarkClient}). The mode ({@value BindingMode#PROPERTY})
 * chooses between Tidemark transactions and plain HBase (the baseline). With YCSB's own workloads every operation
 * is its own transaction; {@link TransactionalWorkload} groups several operations into one through
 * {@link #beginTransaction()} and {@link #commitTransaction()}.
 *
 * <p>YCSB creates one instance per client thread and calls {@link #init()}, the operations and {@link #cleanup()} on
 * that thread. All instances of a JVM share one HBase connection and one TransactionManager. An aborted transaction
 * is reported as {@link #ABORTED}, which YCSB counts apart from errors. In {@code fastpath} mode single-key operations
 * outside an explicit transaction run on the fast path (see {@link FastPathRecordStore}).
 */
public final class TidemarkClient extends DB {

    /**
     * The status of an operation (or transaction) that aborted: a conflict, an invalidation by a reader, or a
     * fast-path operation refused because its row had an undecided write.
     */
    public static final Status ABORTED = new Status("ABORTED", "The Tidemark transaction aborted.");

    private static final Logger LOG = LoggerFactory.getLogger(TidemarkClient.class);

    /** The instance initialised on each YCSB client thread, for workloads that run explicit transactions. */
    private static final ThreadLocal<TidemarkClient> ON_THREAD = new ThreadLocal<>();

    private SharedClients shared;
    private RecordStore store;
    private RecordCodec codec;

    /** The instance YCSB initialised on the calling thread, or null if there is none (another DB binding). */
    public static TidemarkClient onCurrentThread() {
        return ON_THREAD.get();
    }

    @Override
    public void init() throws DBException {
        BindingSettings settings;
        try {
            settings = BindingSettings.from(getProperties());
        } catch (IllegalArgumentException e) {
            throw new DBException("Tidemark binding: " + e.getMessage(), e);
        }
        try {
            shared = SharedClients.acquire(settings);
        } catch (IOException | RuntimeException e) {
            throw new DBException("Tidemark binding could not start: " + e.getMessage(), e);
        }
        codec = new RecordCodec(settings.family());
        store = store(settings.mode(), shared);
        ON_THREAD.set(this);
    }

    private static RecordStore store(BindingMode mode, SharedClients shared) {
        if (!mode.isTransactional()) {
            return new RawRecordStore(shared.connection());
        }
        return mode.usesFastPath()
                ? new FastPathRecordStore(shared.connection(), shared.transactionManager(),
                        shared.settings().tidemarkConfig())
                : new TransactionalRecordStore(shared.connection(), shared.transactionManager());
    }

    @Override
    public void cleanup() throws DBException {
        if (shared == null) {
            return;
        }
        ON_THREAD.remove();
        try {
            store.close();
        } catch (IOException e) {
            throw new DBException("Tidemark binding: closing the tables failed: " + e.getMessage(), e);
        } finally {
            SharedClients.release(shared);
            shared = null;
        }
    }

    public BindingMode mode() {
        return shared.settings().mode();
    }

    /**
     * Opens a transaction on this thread: the following operations join it until {@link #commitTransaction()} or
     * {@link #rollbackTransaction()}. In raw mode the operations just run.
     *
     * @return {@link Status#OK}, or {@link Status#ERROR} when the transaction could not begin (TSO unreachable)
     */
    public Status beginTransaction() {
        try {
            store.begin();
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed("begin", e);
        }
    }

    /** @return {@link Status#OK}, {@link #ABORTED}, or {@link Status#ERROR} (outcome unknown, TSO unreachable) */
    public Status commitTransaction() {
        try {
            store.commit();
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed("commit", e);
        }
    }

    /** Rolls back the open transaction, if any: its writes are removed and never become visible. */
    public void rollbackTransaction() {
        store.rollback();
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            Result row = store.get(TableName.valueOf(table), codec.get(key, fields));
            if (row.isEmpty()) {
                return Status.NOT_FOUND;
            }
            codec.fields(row, result);
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed("read", e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
            Vector<HashMap<String, ByteIterator>> result) {
        try {
            List<Result> rows = store.scan(TableName.valueOf(table), codec.scan(startkey, recordcount, fields));
            for (Result row : rows) {
                HashMap<String, ByteIterator> record = new HashMap<>();
                codec.fields(row, record);
                result.add(record);
            }
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed("scan", e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        return write("update", table, key, values);
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        return write("insert", table, key, values);
    }

    @Override
    public Status delete(String table, String key) {
        try {
            store.delete(TableName.valueOf(table), codec.delete(key));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed("delete", e);
        }
    }

    private Status write(String operation, String table, String key, Map<String, ByteIterator> values) {
        try {
            store.put(TableName.valueOf(table), codec.put(key, values));
            return Status.OK;
        } catch (IOException | RuntimeException e) {
            return failed(operation, e);
        }
    }

    /**
     * Aborts (a generic transaction's, or a fast-path operation refused because the row has an undecided write) are
     * an expected outcome under contention and are counted, not logged; anything else is an error.
     */
    private static Status failed(String operation, Exception e) {
        if (e instanceof TransactionAbortedException || e instanceof FastPathConflictException) {
            return ABORTED;
        }
        LOG.warn("{} failed", operation, e);
        return Status.ERROR;
    }
}
