package io.tidemark.bench.txn;

import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * BEGIN round trips whose timestamps are dropped: what a raw HBase baseline does before each transaction's operations,
 * untimed, so that they follow a round trip to the TSO as a transaction's operations do (docs/benchmarks-history.md, "Ratios
 * over a baseline after BEGIN"). Thread-safe.
 */
public final class BeginRoundTrips implements AutoCloseable {

    private final TransactionManager manager;

    /** Round trips to the TSO of {@code tsoConfig}, over {@code connection} (which stays the caller's). */
    public BeginRoundTrips(Connection connection, TidemarkConfig tsoConfig) {
        this.manager = TransactionManager.builder(connection).config(tsoConfig).build();
    }

    /** One BEGIN round trip. The transaction wrote nothing, so its commit needs no TSO round trip. */
    public void run() throws IOException {
        manager.commit(manager.begin());
    }

    @Override
    public void close() {
        manager.close();
    }
}
