package io.tidemark.bench.txn;

import io.tidemark.bench.BenchTarget;
import io.tidemark.client.PostCommitMode;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * What one mode of a benchmark runs on: for the Tidemark modes a TSO in the matching commit mode (started on an
 * embedded HBase, or the existing cluster's), and a driver on a fresh data table. Closing drops the table and stops a
 * TSO the benchmark started.
 */
public final class TxEnvironment implements AutoCloseable {

    private final BenchTarget.Tso tso;
    private final TxDriver driver;
    private final TableName tableName;

    private TxEnvironment(BenchTarget.Tso tso, TxDriver driver, TableName tableName) {
        this.tso = tso;
        this.driver = driver;
        this.tableName = tableName;
    }

    /**
     * @param namespace HBase namespace of the TSO's tables; one per benchmark keeps benchmarks apart, while the
     *                  modes of one benchmark run one after the other on the same timestamp table
     * @param table     name of the data table (recreated)
     */
    public static TxEnvironment start(TxMode mode, BenchTarget target, String namespace, String table,
                                      DataSpec data) throws IOException {
        return start(mode, target, namespace, table, data, null);
    }

    /**
     * {@link #start(TxMode, BenchTarget, String, String, DataSpec)} with the clients' post-commit {@code postCommit},
     * or, when null, the one the client configuration sets ({@code tidemark.client.post-commit}).
     */
    public static TxEnvironment start(TxMode mode, BenchTarget target, String namespace, String table,
                                      DataSpec data, PostCommitMode postCommit) throws IOException {
        TableName tableName = TableName.valueOf(table + "_" + mode.label());
        Connection connection = target.connection();
        BenchTarget.Tso tso = mode.commitMode() == null ? null : target.tso(mode.commitMode(), namespace);
        try {
            TidemarkConfig clientConfig = tso == null ? null : tso.clientConfig();
            TxDriver driver = !mode.isTransactional()
                    ? new RawHBaseDriver(mode, connection, tableName, data.keys(), data.valueBytes(), clientConfig)
                    : new TidemarkDriver(mode, connection, tableName, data.keys(), data.valueBytes(), clientConfig,
                            postCommit != null ? postCommit : PostCommitMode.fromConfig(clientConfig));
            return new TxEnvironment(tso, driver, tableName);
        } catch (IOException | RuntimeException e) {
            if (tso != null) {
                tso.close();
            }
            throw e;
        }
    }

    public TxDriver driver() {
        return driver;
    }

    /** The data table ({@link DataTable}'s layout), for clients of a benchmark's own. */
    public TableName tableName() {
        return tableName;
    }

    /** Client configuration of the TSO, e.g. for more TSO clients. */
    public TidemarkConfig clientConfig() {
        if (tso == null) {
            throw new IllegalStateException(driver.mode() + " runs without a TSO");
        }
        return tso.clientConfig();
    }

    @Override
    public void close() throws IOException {
        try {
            driver.close();
        } finally {
            if (tso != null) {
                tso.close();
            }
        }
    }

    /** The preloaded data: {@code keys} rows with one value of {@code valueBytes} bytes each. */
    public record DataSpec(int keys, int valueBytes) {

        public DataSpec {
            if (keys < 1) {
                throw new IllegalArgumentException("the table needs at least 1 key, got " + keys);
            }
            if (valueBytes < 0) {
                throw new IllegalArgumentException("value size must not be negative, got " + valueBytes);
            }
        }
    }
}
