package io.tidemark.client;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The client library's configuration ({@code tidemark.client.*}, the commit table, table administration), read and
 * validated once from {@link TidemarkConfig}: a bad value fails with an {@link InvalidConfigurationException} naming
 * the key. {@link TransactionManager}, {@link io.tidemark.client.admin.TidemarkAdmin} and
 * {@link io.tidemark.client.fastpath.FastPathTable} take their settings from
 * here; the TSO connection's own keys ({@code tidemark.client.tso.*}) are read by
 * {@link io.tidemark.client.tso.NettyTsoClient#create}.
 */
public final class ClientSettings {

    private final ConflictLevel requiredConflictLevel;
    private final PostCommitMode postCommitMode;
    private final int minFamilyVersions;
    private final int fastPathOperationTimeoutMillis;
    private final long writeBufferBytes;
    private final boolean singleRegionCommit;
    private final boolean lazyBegin;
    private final String coprocessorJar;
    private final Set<TableName> nonTransactionalTables;
    private final CommitTableSettings commitTable;
    private final TableName timestampTable;
    private final String metricsName;

    public ClientSettings(TidemarkConfig config) {
        requiredConflictLevel = config.get(TidemarkConfig.CLIENT_CONFLICT_LEVEL);
        postCommitMode = PostCommitMode.fromConfig(config);
        minFamilyVersions = config.get(TidemarkConfig.CLIENT_MIN_VERSIONS);
        fastPathOperationTimeoutMillis = config.get(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS);
        writeBufferBytes = config.get(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES);
        singleRegionCommit = config.get(TidemarkConfig.CLIENT_SINGLE_REGION_COMMIT);
        if (singleRegionCommit && writeBufferBytes == 0 && config.isSet(TidemarkConfig.CLIENT_SINGLE_REGION_COMMIT)) {
            throw new InvalidConfigurationException(TidemarkConfig.CLIENT_SINGLE_REGION_COMMIT, "true",
                    "false while " + TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES.key() + " is 0: a single-region commit"
                    + " sends the writes the client kept, so it needs the write buffer");
        }
        lazyBegin = config.get(TidemarkConfig.CLIENT_LAZY_BEGIN);
        if (lazyBegin && !singleRegionCommit()) {
            throw new InvalidConfigurationException(TidemarkConfig.CLIENT_LAZY_BEGIN, "true",
                    "false while single-region commits are off (" + TidemarkConfig.CLIENT_SINGLE_REGION_COMMIT.key()
                    + " false, or " + TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES.key() + " 0): a transaction that"
                    + " never began can only commit in its region");
        }
        coprocessorJar = config.get(TidemarkConfig.ADMIN_COPROCESSOR_JAR);
        nonTransactionalTables = Collections.unmodifiableSet(new LinkedHashSet<>(
                config.get(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES)));
        commitTable = new CommitTableSettings(config);
        timestampTable = config.get(TidemarkConfig.TIMESTAMP_TABLE);
        metricsName = config.get(TidemarkConfig.CLIENT_METRICS_NAME);
    }

    /**
     * {@code tidemark.client.conflict-level}: the level the client insists on, or null when unset (the client then
     * follows the cluster's level, announced by the TSO).
     */
    public ConflictLevel requiredConflictLevel() {
        return requiredConflictLevel;
    }

    /** {@code tidemark.client.post-commit}. */
    public PostCommitMode postCommitMode() {
        return postCommitMode;
    }

    /** Fewest versions a family of a transactional table may keep ({@code tidemark.client.min-family-versions}). */
    public int minFamilyVersions() {
        return minFamilyVersions;
    }

    /**
     * How long one fast-path operation may take, all attempts included
     * ({@code tidemark.client.fastpath.operation-timeout-ms}).
     */
    public int fastPathOperationTimeoutMillis() {
        return fastPathOperationTimeoutMillis;
    }

    /** {@code tidemark.client.write-buffer-bytes}: 0 when every write is sent at once. */
    public long writeBufferBytes() {
        return writeBufferBytes;
    }

    /**
     * {@code tidemark.client.single-region-commit}, in effect: it needs the write buffer, so it is off whenever
     * {@code tidemark.client.write-buffer-bytes} is 0.
     */
    public boolean singleRegionCommit() {
        return singleRegionCommit && writeBufferBytes > 0;
    }

    /** {@code tidemark.client.lazy-begin}: {@code begin()} leaves the BEGIN to the transaction's first need. */
    public boolean lazyBegin() {
        return lazyBegin;
    }

    /**
     * Where region servers load the coprocessor jar from when coprocessors are attached
     * ({@code tidemark.admin.coprocessor-jar}); empty means the region servers' classpath.
     */
    public String coprocessorJar() {
        return coprocessorJar;
    }

    /** The manager's name in JMX ({@code tidemark.client.metrics.name}). */
    public String metricsName() {
        return metricsName;
    }

    /**
     * Tables that look transactional but never hold transactional data
     * ({@code tidemark.admin.non-transactional-tables}): the sweeper and {@code TransactionManager.outcome} skip them.
     */
    public Set<TableName> nonTransactionalTables() {
        return nonTransactionalTables;
    }

    /**
     * The commit table, and the commit-record deadline ({@code tidemark.client.commit-record-timeout-ms}), which
     * the commit-table settings hold because a batched-mode TSO honours it too.
     */
    public CommitTableSettings commitTable() {
        return commitTable;
    }

    /** The TSOs' timestamp table ({@code tidemark.timestamp-table.name}): Tidemark's own, never transactional. */
    public TableName timestampTable() {
        return timestampTable;
    }
}
