package io.tidemark.bench.txn;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * What one mode of a benchmark runs on: for the Tidemark modes a TSO in the matching commit mode (on the given
 * HBase), and a driver on a fresh data table. Closing drops the table and stops the TSO.
 */
public final class TxEnvironment implements AutoCloseable {

    private final EmbeddedCluster cluster;
    private final TxDriver driver;

    private TxEnvironment(EmbeddedCluster cluster, TxDriver driver) {
        this.cluster = cluster;
        this.driver = driver;
    }

    /**
     * @param namespace HBase namespace of the TSO's tables; one per benchmark keeps benchmarks apart, while the
     *                  modes of one benchmark run one after the other on the same timestamp table
     * @param table     name of the data table (recreated)
     */
    public static TxEnvironment start(TxMode mode, Connection connection, String namespace, String table,
                                      DataSpec data) throws IOException {
        TableName tableName = TableName.valueOf(table + "_" + mode.label());
        if (!mode.isTransactional()) {
            return new TxEnvironment(null, new RawHBaseDriver(connection, tableName, data.keys(),
                    data.valueBytes()));
        }
        EmbeddedCluster cluster = EmbeddedCluster.builder().hbaseConnection(connection).tableNamespace(namespace)
                .commitMode(mode.commitMode()).start();
        try {
            return new TxEnvironment(cluster, new TidemarkDriver(mode, connection, tableName, data.keys(),
                    data.valueBytes(), cluster.clientConfig()));
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public TxDriver driver() {
        return driver;
    }

    /** Client configuration of the TSO, e.g. for more TSO clients. */
    public TidemarkConfig clientConfig() {
        if (cluster == null) {
            throw new IllegalStateException("raw HBase runs without a TSO");
        }
        return cluster.clientConfig();
    }

    @Override
    public void close() throws IOException {
        try {
            driver.close();
        } finally {
            if (cluster != null) {
                cluster.close();
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
