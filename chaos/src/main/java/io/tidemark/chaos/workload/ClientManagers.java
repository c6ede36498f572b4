package io.tidemark.chaos.workload;

import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The two transaction managers of a client process: one with the client's defaults, which keeps a transaction's
 * writes until commit and commits a transaction that wrote one region with one request to it (a single-region
 * commit, docs/architecture.md); and one that sends every write at once and commits through the TSO, so that readers
 * meet running transactions' tentative writes. Generic transactions pick one at random.
 */
public final class ClientManagers implements AutoCloseable {

    private final TransactionManager inRegion;
    private final TransactionManager sentAtOnce;

    private ClientManagers(TransactionManager inRegion, TransactionManager sentAtOnce) {
        this.inRegion = inRegion;
        this.sentAtOnce = sentAtOnce;
    }

    /** Both managers over {@code connection}, from {@code config} (which this leaves unchanged). */
    public static ClientManagers open(Connection connection, TidemarkConfig config) {
        TidemarkConfig atOnce = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        atOnce.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES, "0");
        atOnce.set(TidemarkConfig.CLIENT_METRICS_NAME, "chaos-sent-at-once");
        TransactionManager inRegion = TransactionManager.builder(connection).config(config).build();
        try {
            return new ClientManagers(inRegion, TransactionManager.builder(connection).config(atOnce).build());
        } catch (RuntimeException e) {
            inRegion.close();
            throw e;
        }
    }

    /** Keeps writes until commit; commits in one region's request when it can. */
    public TransactionManager inRegion() {
        return inRegion;
    }

    /** Sends every write at once; commits through the TSO. */
    public TransactionManager sentAtOnce() {
        return sentAtOnce;
    }

    @Override
    public void close() {
        sentAtOnce.close();
        inRegion.close();
    }
}
