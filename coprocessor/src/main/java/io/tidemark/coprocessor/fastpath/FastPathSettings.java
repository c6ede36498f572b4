package io.tidemark.coprocessor.fastpath;

import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;

import java.util.Locale;

/**
 * The fast path's settings ({@code tidemark.fastpath.*}, docs/configuration.md), read and validated once when the
 * region's observer starts, from the table's binding ({@link TableBinding#settings}).
 */
final class FastPathSettings {

    /** HBase's default for {@link TableBinding#HBASE_MAX_CLOCK_SKEW}. */
    static final long HBASE_MAX_CLOCK_SKEW_DEFAULT = 30_000L;

    private final GenericWriteCheck.Rule writeCheck;
    private final long readWaitMillis;
    private final long recordTtlMillis;
    private final long maxClockSkewMillis;

    FastPathSettings(Configuration configuration) {
        TidemarkConfig config = new TidemarkConfig(configuration);
        writeCheck = GenericWriteCheck.Rule.valueOf(config.get(TidemarkConfig.FASTPATH_WRITE_CHECK)
                .toUpperCase(Locale.ROOT));
        readWaitMillis = config.get(TidemarkConfig.FASTPATH_READ_WAIT_MS);
        recordTtlMillis = config.get(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS);
        maxClockSkewMillis = Math.max(0, configuration.getLong(TableBinding.HBASE_MAX_CLOCK_SKEW,
                HBASE_MAX_CLOCK_SKEW_DEFAULT));
    }

    /** {@code tidemark.fastpath.write-check}. */
    GenericWriteCheck.Rule writeCheck() {
        return writeCheck;
    }

    /** {@code tidemark.fastpath.read-wait-ms}. */
    long readWaitMillis() {
        return readWaitMillis;
    }

    /** {@code tidemark.fastpath.operation-record-ttl-ms}: operation records older than this are removed. */
    long recordTtlMillis() {
        return recordTtlMillis;
    }

    /**
     * Refuses a write whose client may keep using its stream for longer than the operation records protect. A client
     * uses a stream for new operations during one operation timeout and sends the attempts of each operation within
     * one more, so every attempt runs less than two timeouts after the stream's first record was written; a record
     * is removed only when a region server's clock (which may differ by up to HBase's maximum clock skew) says it is
     * older than the TTL. So {@code 2 * timeout + max clock skew} must not exceed the TTL.
     */
    void checkOperationTimeout(long clientTimeoutMillis) throws DoNotRetryIOException {
        if (clientTimeoutMillis > (recordTtlMillis - maxClockSkewMillis) / 2) {
            throw new DoNotRetryIOException("the client's fast-path operation timeout of " + clientTimeoutMillis
                    + " ms is too long for this table's operation records, which are kept "
                    + TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS + " = " + recordTtlMillis + " ms: a retried"
                    + " operation could run twice. Lower " + TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS
                    + " to at most (TTL - " + TableBinding.HBASE_MAX_CLOCK_SKEW + " " + maxClockSkewMillis
                    + " ms) / 2 = "
                    + Math.max(0, (recordTtlMillis - maxClockSkewMillis) / 2) + " ms, or raise the TTL");
        }
    }
}
