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
 * here; the TSO connection's own keys are read by {@link io.tidemark.client.tso.NettyTsoClient#create}.
 */
public final class ClientSettings {

    private final ConflictLevel requiredConflictLevel;
    private final PostCommitMode postCommitMode;
    private final int minFamilyVersions;
    private final int fastPathOperationTimeoutMillis;
    private final String coprocessorJar;
    private final Set<TableName> nonTransactionalTables;
    private final CommitTableSettings commitTable;
    private final TableName timestampTable;
    private final String metricsName;

    public ClientSettings(TidemarkConfig config) {
        requiredConflictLevel = config.isSet(TidemarkConfig.CLIENT_CONFLICT_LEVEL)
                ? ConflictLevel.fromConfigName(config.getChoice(TidemarkConfig.CLIENT_CONFLICT_LEVEL,
                        ConflictLevel.CELL.configName(), ConflictLevel.CELL.configName(),
                        ConflictLevel.ROW.configName()))
                : null;
        postCommitMode = PostCommitMode.fromConfig(config);
        minFamilyVersions = config.getInt(TidemarkConfig.CLIENT_MIN_VERSIONS,
                TidemarkConfig.CLIENT_MIN_VERSIONS_DEFAULT, 1, Integer.MAX_VALUE);
        fastPathOperationTimeoutMillis = config.getInt(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS,
                TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS_DEFAULT, 1, Integer.MAX_VALUE);
        coprocessorJar = config.hadoopConfiguration().getTrimmed(TidemarkConfig.ADMIN_COPROCESSOR_JAR,
                TidemarkConfig.ADMIN_COPROCESSOR_JAR_DEFAULT);
        nonTransactionalTables = Collections.unmodifiableSet(new LinkedHashSet<>(
                config.getTableNames(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES)));
        commitTable = new CommitTableSettings(config);
        timestampTable = config.getTableName(TidemarkConfig.TIMESTAMP_TABLE, TidemarkConfig.TIMESTAMP_TABLE_DEFAULT);
        metricsName = config.getString(TidemarkConfig.CLIENT_METRICS_NAME, TidemarkConfig.CLIENT_METRICS_NAME_DEFAULT);
        if (!metricsName.matches("[A-Za-z0-9._-]+")) {
            throw new InvalidConfigurationException(TidemarkConfig.CLIENT_METRICS_NAME, metricsName,
                    "letters, digits, '.', '_' and '-' (it becomes part of a JMX name)");
        }
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
