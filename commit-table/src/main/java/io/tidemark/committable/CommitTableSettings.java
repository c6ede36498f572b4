package io.tidemark.committable;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;


/**
 * The commit table's configuration, read and validated once from {@link TidemarkConfig} (the keys
 * {@code tidemark.commit-table.*}, and {@value TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS}, which binds every
 * writer of commit records): the TSO, clients, coprocessors, the sweeper and the benchmarks all take it from here, so
 * they agree on the table's name, its salt buckets, the commit-record deadline and their bounds. A bad value fails with
 * an {@link InvalidConfigurationException} naming the key.
 */
public final class CommitTableSettings {

    /** Most commit-record requests one process keeps in flight at once. */
    public static final int MAX_WRITE_PARALLELISM = 256;
    /** Longest commit-record timeout accepted: an hour. */
    public static final long MAX_COMMIT_RECORD_TIMEOUT_MS = 3_600_000L;

    private final TableName tableName;
    private final CommitTableSchema schema;
    private final int writeParallelism;
    private final boolean guard;
    private final long commitRecordTimeoutMs;

    public CommitTableSettings(TidemarkConfig config) {
        tableName = config.getTableName(TidemarkConfig.COMMIT_TABLE, TidemarkConfig.COMMIT_TABLE_DEFAULT);
        schema = new CommitTableSchema(config.getInt(TidemarkConfig.COMMIT_TABLE_REGIONS,
                TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1, CommitTableSchema.MAX_BUCKETS));
        writeParallelism = config.getInt(TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM,
                TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM_DEFAULT, 1, MAX_WRITE_PARALLELISM);
        guard = Boolean.parseBoolean(config.getChoice(TidemarkConfig.COMMIT_TABLE_GUARD,
                TidemarkConfig.COMMIT_TABLE_GUARD_DEFAULT, "true", "false"));
        commitRecordTimeoutMs = config.getLong(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS,
                TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS_DEFAULT, 1, MAX_COMMIT_RECORD_TIMEOUT_MS);
    }

    public TableName tableName() {
        return tableName;
    }

    /** Row-key layout, with one salt bucket (and one pre-split region) per {@link #buckets()}. */
    public CommitTableSchema schema() {
        return schema;
    }

    public int buckets() {
        return schema.buckets();
    }

    /** How many commit-record writes one process keeps in flight to HBase at once (TSO and clients alike). */
    public int writeParallelism() {
        return writeParallelism;
    }

    /**
     * Whether a newly created commit table gets the commit-record guard coprocessor; off by default because the
     * tidemark-coprocessor jar must then be on every region server's classpath.
     */
    public boolean guard() {
        return guard;
    }

    /**
     * The commit-record deadline ({@value TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS}): no attempt to write a
     * transaction's commit record runs later than this long after its commit was asked for (a client: COMMIT sent; a
     * batched-mode TSO: the commit decided). Clients and the TSO both honour it; the sweeper waits for it.
     */
    public long commitRecordTimeoutMs() {
        return commitRecordTimeoutMs;
    }

    /** A deadline {@link #commitRecordTimeoutMs()} from now, for the commit-record writes of one commit. */
    public CommitRecordDeadline commitRecordDeadline() {
        return CommitRecordDeadline.afterMillis(commitRecordTimeoutMs);
    }
}
