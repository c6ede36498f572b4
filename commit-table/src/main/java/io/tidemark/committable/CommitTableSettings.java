package io.tidemark.committable;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The commit table's configuration, read and validated once from {@link TidemarkConfig} (the keys
 * {@code tidemark.commit-table.*}): the TSO, clients, coprocessors, the sweeper and the benchmarks all take it from
 * here, so they agree on the table's name, its salt buckets and their bounds. A bad value fails with an
 * {@link InvalidConfigurationException} naming the key.
 */
public final class CommitTableSettings {

    /** Most commit-record requests one process keeps in flight at once. */
    public static final int MAX_WRITE_PARALLELISM = 256;

    private final TableName tableName;
    private final CommitTableSchema schema;
    private final int writeParallelism;
    private final boolean guard;

    public CommitTableSettings(TidemarkConfig config) {
        tableName = config.getTableName(TidemarkConfig.COMMIT_TABLE, TidemarkConfig.COMMIT_TABLE_DEFAULT);
        schema = new CommitTableSchema(config.getInt(TidemarkConfig.COMMIT_TABLE_REGIONS,
                TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1, CommitTableSchema.MAX_BUCKETS));
        writeParallelism = config.getInt(TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM,
                TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM_DEFAULT, 1, MAX_WRITE_PARALLELISM);
        guard = Boolean.parseBoolean(config.getChoice(TidemarkConfig.COMMIT_TABLE_GUARD,
                TidemarkConfig.COMMIT_TABLE_GUARD_DEFAULT, "true", "false"));
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
     * What a region observer needs to find this commit table (its name and buckets), as the configuration keys and
     * values to set as coprocessor properties: region servers then agree with the clients without an
     * {@code hbase-site.xml} change.
     */
    public Map<String, String> locationProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(TidemarkConfig.COMMIT_TABLE, tableName.getNameAsString());
        properties.put(TidemarkConfig.COMMIT_TABLE_REGIONS, String.valueOf(schema.buckets()));
        return properties;
    }
}
