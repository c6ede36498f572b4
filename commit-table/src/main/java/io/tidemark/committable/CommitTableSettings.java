package io.tidemark.committable;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;


/**
 * The commit table's configuration, read and validated once from {@link TidemarkConfig} (the keys
 * {@code tidemark.commit-table.*}, and {@link TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS}, which binds every
 * writer of commit records): the TSO, clients, coprocessors, the sweeper and the benchmarks all take it from here, so
 * they agree on the table's name, its salt buckets, the commit-record deadline and their bounds. A bad value fails with
 * an {@link InvalidConfigurationException} naming the key.
 */
public final class CommitTableSettings {

    private final TableName tableName;
    private final CommitTableSchema schema;
    private final int writeParallelism;
    private final boolean guard;
    private final long commitRecordTimeoutMs;

    public CommitTableSettings(TidemarkConfig config) {
        tableName = config.get(TidemarkConfig.COMMIT_TABLE);
        schema = new CommitTableSchema(config.get(TidemarkConfig.COMMIT_TABLE_REGIONS));
        writeParallelism = config.get(TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM);
        guard = config.get(TidemarkConfig.COMMIT_TABLE_GUARD);
        commitRecordTimeoutMs = config.get(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS);
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
     * The commit-record deadline ({@link TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS}): no attempt to write a
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
