package io.tidemark.committable;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.certificate.Seal;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The commit table in HBase ({@link CommitTableSchema}). Commit and invalidation are both "put if absent" on the same
 * column, so whichever reaches the region server first wins and the other learns it lost. Invalidation always uses
 * check-and-mutate; batches of commits use guarded puts when the table has the guard coprocessor (one WAL sync per
 * region of the batch, see {@link CommitTableSchema}) and a list of check-and-mutates otherwise; a batch of one is a
 * single put or check-and-mutate. Thread-safe: every call borrows a {@link Table} from the shared {@link Connection}.
 */
public final class HBaseCommitTable implements CommitTable {

    private static final byte[] TRUE = {1};

    private static final Logger LOG = LoggerFactory.getLogger(HBaseCommitTable.class);

    /** Idle threads of {@link #writePool} end after this long. */
    private static final long WRITE_THREAD_KEEP_ALIVE_SECONDS = 60;

    private final Connection connection;
    private final TableName tableName;
    private final CommitTableSchema schema;
    /**
     * Runs the multi-requests of commit-record writes made through table handles with their own timeouts (a handle
     * built without a pool would start, and stop, a pool of its own per write). Threads are daemons and end when idle,
     * so the pool needs no closing.
     */
    private final ExecutorService writePool;
    /** Whether the table carries the guard; null until {@link #checkLayout()} passed. */
    private volatile @Nullable Boolean guarded;
    /** Keys that sign what this process may remove itself: none for an application. */
    private final DecisionKeys keys;

    public HBaseCommitTable(Connection connection, CommitTableSettings settings) {
        this(connection, settings.tableName(), settings.schema());
    }

    public HBaseCommitTable(Connection connection, TableName tableName, CommitTableSchema schema) {
        this(connection, tableName, schema, DecisionKeys.NONE);
    }

    /**
     * @param keys the decision keys this process may read (a TSO's own, or the timestamp table's for region servers
     *     and the sweeper): with them it signs the removal of records and markers and the low watermark
     */
    public HBaseCommitTable(Connection connection, TableName tableName, CommitTableSchema schema, DecisionKeys keys) {
        this.connection = connection;
        this.tableName = tableName;
        this.schema = schema;
        this.keys = keys;
        AtomicInteger threads = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, Integer.MAX_VALUE, WRITE_THREAD_KEEP_ALIVE_SECONDS,
                TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
                    Thread t = new Thread(runnable, "tidemark-commit-record-write-" + threads.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        this.writePool = pool;
    }

    /**
     * The commit table {@code tableName} with the salt buckets its layout row records, read now from the region
     * server that holds the row (never from the master): for a process that is told which commit table to use but
     * must not take its layout from anyone else, a region server serving a table bound to it (docs/security.md).
     *
     * @throws CommitTableMismatchException when the table records no salt buckets (or a value that is none)
     */
    public static HBaseCommitTable asRecorded(Connection connection, TableName tableName, DecisionKeys keys)
            throws IOException {
        Result layoutRow;
        try (Table table = connection.getTable(tableName)) {
            layoutRow = table.get(layoutGet());
        }
        byte[] recorded = layoutRow.getValue(CommitTableSchema.FAMILY, CommitTableSchema.BUCKETS_QUALIFIER);
        int buckets;
        try {
            buckets = recorded == null ? -1 : Integer.parseInt(Bytes.toString(recorded));
        } catch (NumberFormatException e) {
            buckets = -1;
        }
        if (buckets < 1 || buckets > CommitTableSchema.MAX_BUCKETS) {
            throw new CommitTableMismatchException("commit table " + tableName + " records "
                    + (recorded == null ? "no salt buckets" : "'" + Bytes.toStringBinary(recorded) + "' as its salt"
                    + " buckets") + " in its layout row: a TSO of this version records them when it is built");
        }
        HBaseCommitTable recordedTable = new HBaseCommitTable(connection, tableName, new CommitTableSchema(buckets),
                keys);
        recordedTable.checkLayout(layoutRow);
        return recordedTable;
    }

    public TableName tableName() {
        return tableName;
    }

    public CommitTableSchema schema() {
        return schema;
    }

    @Override
    public int partition(long startTimestamp) {
        return schema.bucket(startTimestamp);
    }

    @Override
    public CommitState lookup(long startTimestamp) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            return decode(table.get(recordGet(startTimestamp)));
        }
    }

    Get recordGet(long startTimestamp) {
        return new Get(schema.rowKey(startTimestamp)).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.COMMIT_QUALIFIER);
    }

    static CommitState decode(Result record) {
        return CommitTableSchema.decode(record.getValue(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER));
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        checkLayout(deadline);
        try (Table table = commitWriteTable(deadline)) {
            if (table.checkAndMutate(commitIfAbsent(record)).isSuccess()) {
                return true;
            }
        }
        return record.isRecordedAs(lookup(record.startTimestamp()));
    }

    @Override
    public boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) throws IOException {
        if (records.isEmpty()) {
            return new boolean[0];
        }
        return checkLayout(deadline) ? tryCommitAllGuarded(records, deadline)
                : tryCommitAllConditional(records, deadline);
    }

    /**
     * The table handle for commit-record writes: HBase's operation and RPC timeouts end at the deadline, so neither
     * HBase's own retries nor a slow RPC outlive it (a region server also drops a queued call whose timeout passed).
     * Refuses, with an {@link IOException}, once the deadline has passed.
     */
    private Table commitWriteTable(CommitRecordDeadline deadline) throws IOException {
        if (!deadline.isBounded()) {
            return connection.getTable(tableName);
        }
        int timeoutMs = deadline.remainingMillisForWrite();
        return connection.getTableBuilder(tableName, writePool).setOperationTimeout(timeoutMs).setRpcTimeout(timeoutMs)
                .setWriteRpcTimeout(timeoutMs).setReadRpcTimeout(timeoutMs).build();
    }

    /**
     * Checks, once per instance, that the table's layout row ({@link CommitTableSchema#LAYOUT_ROW}) records this
     * process's salt buckets, and learns from the same read whether the table carries the guard. Every write of a
     * decision checks first, so none is written under a row key the table's other users would not look at. The row
     * is read from the region server that holds it, never from the master: commits and invalidations go on while the
     * master is away.
     *
     * @throws CommitTableMismatchException when the table was created with other salt buckets, or its layout row
     *         records none yet
     */
    public void checkLayout() throws IOException {
        checkLayout(CommitRecordDeadline.NONE);
    }

    /**
     * {@link #checkLayout()} before a commit record's write: the read ends at the record's deadline, as the write
     * would, so a region holding the layout row that is away cannot hold the commit past it.
     */
    private boolean checkLayout(CommitRecordDeadline deadline) throws IOException {
        Boolean known = guarded;
        if (known == null) {
            try (Table table = commitWriteTable(deadline)) {
                return checkLayout(table.get(layoutGet()));
            }
        }
        return known;
    }

    /** The read of the table's layout row, with the guard's probe, for {@link #checkLayout(Result)}. */
    static Get layoutGet() {
        Get layout = new Get(CommitTableSchema.LAYOUT_ROW).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.BUCKETS_QUALIFIER);
        layout.setAttribute(CommitTableSchema.GUARD_PROBE_ATTRIBUTE, TRUE);
        return layout;
    }

    /**
     * {@link #checkLayout()} on the layout row read by {@link #layoutGet()}.
     *
     * @return whether the table carries the guard (its answer to the probe is in the row)
     */
    boolean checkLayout(Result layoutRow) throws CommitTableMismatchException {
        byte[] recorded = layoutRow.getValue(CommitTableSchema.FAMILY, CommitTableSchema.BUCKETS_QUALIFIER);
        requireConfiguredBuckets(recorded == null ? null : Bytes.toString(recorded), "records no salt buckets in its"
                + " layout row yet: a TSO of this version records them when it is built, from the table attribute "
                + CommitTableSchema.BUCKETS_ATTRIBUTE);
        boolean isGuarded = layoutRow.containsColumn(CommitTableSchema.FAMILY, CommitTableSchema.GUARDED_QUALIFIER);
        guarded = isGuarded;
        return isGuarded;
    }

    /**
     * Copies the salt buckets the table was created with (its attribute {@link CommitTableSchema#BUCKETS_ATTRIBUTE},
     * read from the master) into its layout row, unless the row holds them already, then checks them as
     * {@link #checkLayout()} does. Run by {@link CommitTableAdmin#createIfMissing}.
     *
     * @throws CommitTableMismatchException when the table was created with other salt buckets, or records none
     */
    void recordLayout() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            String created = table.getDescriptor().getValue(CommitTableSchema.BUCKETS_ATTRIBUTE);
            requireConfiguredBuckets(created, "does not record its salt buckets (table attribute "
                    + CommitTableSchema.BUCKETS_ATTRIBUTE + "): record the number of buckets it was created with (its"
                    + " pre-split regions) in the HBase shell, alter '" + tableName + "', METADATA => {'"
                    + CommitTableSchema.BUCKETS_ATTRIBUTE + "' => '<buckets>'}, then start a TSO");
            table.checkAndMutate(CheckAndMutate.newBuilder(CommitTableSchema.LAYOUT_ROW)
                    .ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.BUCKETS_QUALIFIER)
                    .build(new Put(CommitTableSchema.LAYOUT_ROW).addColumn(CommitTableSchema.FAMILY,
                            CommitTableSchema.BUCKETS_QUALIFIER, Bytes.toBytes(created))));
        }
        // A row recorded before, with other buckets than the attribute now says, is refused here.
        checkLayout();
    }

    /**
     * @param recorded the salt buckets the table records, in decimal, or null when it records none
     * @param whenNone what is missing and how to record it, after "commit table NAME"
     */
    private void requireConfiguredBuckets(@Nullable String recorded, String whenNone)
            throws CommitTableMismatchException {
        String configured = String.valueOf(schema.buckets());
        if (recorded == null) {
            throw new CommitTableMismatchException("commit table " + tableName + " " + whenNone + "; until then"
                    + " nothing tells whether this process, configured with " + TidemarkConfig.COMMIT_TABLE_REGIONS
                    + "=" + configured + ", finds its records");
        }
        if (!recorded.equals(configured)) {
            throw new CommitTableMismatchException("commit table " + tableName + " was created with " + recorded
                    + " salt buckets but this process is configured with " + TidemarkConfig.COMMIT_TABLE_REGIONS
                    + "=" + configured + ": set " + TidemarkConfig.COMMIT_TABLE_REGIONS + "=" + recorded
                    + " in every client, TSO and region server of this commit table");
        }
    }

    /**
     * Whether the table carries the guard coprocessor, as the guard itself answers {@link #checkLayout()}'s read.
     *
     * @throws CommitTableMismatchException when the table was created with other salt buckets, or records none
     */
    public boolean isGuarded() throws IOException {
        return checkLayout(CommitRecordDeadline.NONE);
    }

    private boolean[] tryCommitAllGuarded(List<CommitRecord> records, CommitRecordDeadline deadline)
            throws IOException {
        if (records.size() == 1) {
            return tryCommitOneGuarded(records, deadline);
        }
        List<Put> puts = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            puts.add(guardedPut(record));
        }
        Object[] results = new Object[puts.size()];
        try (Table table = commitWriteTable(deadline)) {
            table.batch(puts, results);
        } catch (RetriesExhaustedWithDetailsException partlyRefused) {
            // Refused puts are reported per action below; any other failure leaves the outcome unknown.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing commit records");
        }
        boolean[] won = guardedOutcomes(records, results);
        recognizeOwnRecords(records, won);
        return won;
    }

    /**
     * What a batch of guarded puts decided, from HBase's result of each ({@code null} when not applied, a
     * {@link Throwable} when refused or failed): true where written, false where the guard refused it.
     *
     * @throws IOException when a put failed otherwise: every record's outcome is then unknown
     */
    static boolean[] guardedOutcomes(List<CommitRecord> records, Object[] results) throws IOException {
        boolean[] won = new boolean[records.size()];
        for (int i = 0; i < won.length; i++) {
            Object result = results[i];
            if (result instanceof Throwable) {
                Throwable failure = (Throwable) result;
                if (!isAlreadyDecided(failure)) {
                    throw new IOException("writing the commit record of " + records.get(i).startTimestamp()
                            + " failed", failure);
                }
            } else {
                won[i] = result != null;
            }
        }
        return won;
    }

    /**
     * One record as a single put: HBase's client sends it on the calling thread, where a batch is handed to a thread
     * of the table's pool first.
     */
    private boolean[] tryCommitOneGuarded(List<CommitRecord> records, CommitRecordDeadline deadline)
            throws IOException {
        boolean[] won = {true};
        try (Table table = commitWriteTable(deadline)) {
            table.put(guardedPut(records.get(0)));
        } catch (IOException e) {
            if (!isAlreadyDecided(e)) {
                throw e;
            }
            won[0] = false;
        }
        recognizeOwnRecords(records, won);
        return won;
    }

    /** Whether {@code failure}, or one of its causes, is the guard's refusal. */
    static boolean isAlreadyDecided(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains(CommitTableSchema.ALREADY_DECIDED)) {
                return true;
            }
        }
        return false;
    }

    Put guardedPut(CommitRecord record) {
        Put put = commitPut(schema.rowKey(record.startTimestamp()), record);
        put.setAttribute(CommitTableSchema.PUT_IF_ABSENT_ATTRIBUTE, TRUE);
        return put;
    }

    private boolean[] tryCommitAllConditional(List<CommitRecord> records, CommitRecordDeadline deadline)
            throws IOException {
        if (records.size() == 1) {
            // A single check-and-mutate is sent on the calling thread, a list of them through the client's batch path.
            return new boolean[] {tryCommit(records.get(0), deadline)};
        }
        boolean[] won = new boolean[records.size()];
        List<CheckAndMutate> operations = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            operations.add(commitIfAbsent(record));
        }
        try (Table table = commitWriteTable(deadline)) {
            List<CheckAndMutateResult> results = table.checkAndMutate(operations);
            for (int i = 0; i < won.length; i++) {
                won[i] = results.get(i).isSuccess();
            }
        }
        recognizeOwnRecords(records, won);
        return won;
    }

    /**
     * A refused record may be our own: HBase re-sends a write whose reply was lost, and the re-sent write then finds
     * the record its first attempt wrote. Reads the refused records back and counts those holding our own commit
     * timestamp as won; only a record holding another decision (an invalidation) really lost.
     */
    private void recognizeOwnRecords(List<CommitRecord> records, boolean[] won) throws IOException {
        List<Get> gets = refusedRecordGets(records, won);
        if (gets.isEmpty()) {
            return;
        }
        try (Table table = connection.getTable(tableName)) {
            recognizeOwnRecords(records, won, table.get(gets));
        }
    }

    /** The gets that read back the refused records ({@code won[i]} false), in order. */
    List<Get> refusedRecordGets(List<CommitRecord> records, boolean[] won) {
        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < won.length; i++) {
            if (!won[i]) {
                gets.add(recordGet(records.get(i).startTimestamp()));
            }
        }
        return gets;
    }

    /** Counts as won each refused record whose stored decision, read by {@link #refusedRecordGets}, is its own. */
    static void recognizeOwnRecords(List<CommitRecord> records, boolean[] won, Result[] storedOfRefused) {
        int j = 0;
        for (int i = 0; i < won.length; i++) {
            if (!won[i]) {
                won[i] = records.get(i).isRecordedAs(decode(storedOfRefused[j++]));
            }
        }
    }

    @Override
    public CommitState invalidate(long startTimestamp) throws IOException {
        checkLayout();
        try (Table table = connection.getTable(tableName)) {
            if (table.checkAndMutate(invalidation(startTimestamp)).isSuccess()) {
                return CommitState.invalidated();
            }
        }
        // Decided by content: a marker found here is ours or another reader's (a re-sent invalidation whose first
        // attempt was applied finds its own), and either way the transaction is invalidated.
        return lookup(startTimestamp);
    }

    /** The put-if-absent of an invalidation marker: it fails exactly when a decision is already there. */
    CheckAndMutate invalidation(long startTimestamp) {
        byte[] row = schema.rowKey(startTimestamp);
        return CheckAndMutate.newBuilder(row)
                .ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER)
                .build(new Put(row).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        CommitTableSchema.INVALIDATED_VALUE));
    }

    @Override
    public void undoInvalidation(long startTimestamp) throws IOException {
        byte[] row = schema.rowKey(startTimestamp);
        Delete delete = new Delete(row);
        DecisionKey key = keys.newest();
        if (key != null) {
            delete.setAttribute(CommitTableSchema.RELEASE_ATTRIBUTE, key.unmarkToken(startTimestamp).encode());
        }
        CheckAndMutate undo = CheckAndMutate.newBuilder(row)
                .ifEquals(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        CommitTableSchema.INVALIDATED_VALUE)
                .build(delete);
        try (Table table = connection.getTable(tableName)) {
            table.checkAndMutate(undo);
        } catch (DoNotRetryIOException refused) {
            if (!CommitTableSchema.isUnentitledRemoval(refused)) {
                throw refused;
            }
            // Only holders of the decision keys remove markers; the writer's shadow cells decide meanwhile.
            LOG.debug("left the invalidation marker of {} for the sweeper: {}", startTimestamp, refused.getMessage());
        }
    }

    @Override
    public void release(CommitRecord record) throws IOException {
        try (Table table = connection.getTable(tableName)) {
            table.delete(releaseOf(record));
        }
    }

    @Override
    public void releaseAll(List<CommitRecord> records) throws IOException {
        if (records.isEmpty()) {
            return;
        }
        List<Delete> deletes = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            deletes.add(releaseOf(record));
        }
        try (Table table = connection.getTable(tableName)) {
            table.delete(deletes);
        }
    }

    /**
     * The Delete of {@code record}'s row, with its release token or, where this process holds keys, one signed here.
     */
    Delete releaseOf(CommitRecord record) throws IOException {
        Delete delete = new Delete(schema.rowKey(record.startTimestamp()));
        Seal token = record.releaseToken();
        if (token == null) {
            DecisionKey key = keys.newest();
            token = key == null ? null : key.releaseToken(record.startTimestamp());
        }
        if (token != null) {
            delete.setAttribute(CommitTableSchema.RELEASE_ATTRIBUTE, token.encode());
        }
        return delete;
    }

    @Override
    public long readLowWatermark() throws IOException {
        try (Table table = connection.getTable(tableName)) {
            return readLowWatermark(table);
        }
    }

    private static long readLowWatermark(Table table) throws IOException {
        byte[] value = table.get(new Get(CommitTableSchema.LOW_WATERMARK_ROW)
                .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER))
                .getValue(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER);
        return value == null ? 0L : Bytes.toLong(value);
    }

    @Override
    public void raiseLowWatermark(long lowWatermark) throws IOException {
        Put raised = new Put(CommitTableSchema.LOW_WATERMARK_ROW).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.LOW_WATERMARK_QUALIFIER, Bytes.toBytes(lowWatermark));
        DecisionKey key = keys.newest();
        if (key != null) {
            raised.setAttribute(CommitTableSchema.LOW_WATERMARK_SEAL_ATTRIBUTE,
                    key.lowWatermarkCertificate(lowWatermark).encode());
        }
        try (Table table = connection.getTable(tableName)) {
            while (true) {
                long stored = readLowWatermark(table);
                if (stored >= lowWatermark) {
                    return;
                }
                CheckAndMutate.Builder ifUnchanged = CheckAndMutate.newBuilder(CommitTableSchema.LOW_WATERMARK_ROW);
                CheckAndMutate raise = stored == 0
                        ? ifUnchanged.ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER)
                                .build(raised)
                        : ifUnchanged.ifEquals(CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER,
                                Bytes.toBytes(stored)).build(raised);
                if (table.checkAndMutate(raise).isSuccess()) {
                    return;
                }
                // Another TSO raised it meanwhile: compare again with what it wrote.
            }
        }
    }

    CheckAndMutate commitIfAbsent(CommitRecord record) {
        byte[] row = schema.rowKey(record.startTimestamp());
        return CheckAndMutate.newBuilder(row)
                .ifNotExists(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER)
                .build(commitPut(row, record));
    }

    private static Put commitPut(byte[] row, CommitRecord record) {
        return new Put(row).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                CommitTableSchema.encodeCommit(record)).setDurability(record.durability());
    }
}
