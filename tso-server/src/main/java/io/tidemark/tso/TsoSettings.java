package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.conflict.ConflictMap;
import org.apache.hadoop.hbase.TableName;

/**
 * The TSO's configuration, read and validated once from {@link TidemarkConfig}: a bad value fails the build of the
 * server with an {@link InvalidConfigurationException} naming the key.
 */
public final class TsoSettings {

    /** Largest timestamp block: keeps block arithmetic far from overflow. */
    static final long MAX_TIMESTAMP_BLOCK = 1L << 40;

    private final String host;
    private final int port;
    private final CommitMode commitMode;
    private final int conflictMapEntries;
    private final long timestampBlock;
    private final int maxFrameBytes;
    private final int batchMaxSize;
    private final int batchFlushTimeoutMs;
    private final int lowWatermarkPersistIntervalMs;
    private final CommitTableSettings commitTable;
    private final TableName timestampTable;

    public TsoSettings(TidemarkConfig config) {
        host = config.getString(TidemarkConfig.TSO_HOST, TidemarkConfig.TSO_HOST_DEFAULT);
        port = config.getInt(TidemarkConfig.TSO_PORT, TidemarkConfig.TSO_PORT_DEFAULT, 0, 65535);
        commitMode = CommitMode.fromConfigName(config.getChoice(TidemarkConfig.TSO_COMMIT_MODE,
                TidemarkConfig.TSO_COMMIT_MODE_DEFAULT, CommitMode.LOW_LATENCY.configName(),
                CommitMode.BATCHED.configName()));
        conflictMapEntries = config.getInt(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES,
                TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES_DEFAULT, ConflictMap.WAYS, ConflictMap.MAX_ENTRIES);
        timestampBlock = config.getLong(TidemarkConfig.TSO_TIMESTAMP_BLOCK, TidemarkConfig.TSO_TIMESTAMP_BLOCK_DEFAULT,
                1, MAX_TIMESTAMP_BLOCK);
        maxFrameBytes = config.getInt(TidemarkConfig.TSO_MAX_FRAME_BYTES, TidemarkConfig.TSO_MAX_FRAME_BYTES_DEFAULT,
                64, Integer.MAX_VALUE);
        batchMaxSize = config.getInt(TidemarkConfig.TSO_BATCH_MAX_SIZE, TidemarkConfig.TSO_BATCH_MAX_SIZE_DEFAULT,
                1, 1_000_000);
        batchFlushTimeoutMs = config.getInt(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS,
                TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS_DEFAULT, 0, 60_000);
        lowWatermarkPersistIntervalMs = config.getInt(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS,
                TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS_DEFAULT, 1, 3_600_000);
        commitTable = new CommitTableSettings(config);
        timestampTable = config.getTableName(TidemarkConfig.TIMESTAMP_TABLE, TidemarkConfig.TIMESTAMP_TABLE_DEFAULT);
    }

    public String host() {
        return host;
    }

    /** 0 binds an ephemeral port. */
    public int port() {
        return port;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public int conflictMapEntries() {
        return conflictMapEntries;
    }

    public long timestampBlock() {
        return timestampBlock;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    public int batchMaxSize() {
        return batchMaxSize;
    }

    public int batchFlushTimeoutMs() {
        return batchFlushTimeoutMs;
    }

    public int lowWatermarkPersistIntervalMs() {
        return lowWatermarkPersistIntervalMs;
    }

    /** The commit table's settings; its write parallelism is the concurrent requests per batch in batched mode. */
    public CommitTableSettings commitTable() {
        return commitTable;
    }

    public TableName timestampTable() {
        return timestampTable;
    }
}
