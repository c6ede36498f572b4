package io.tidemark.tso;

import io.tidemark.committable.CommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.timestamp.TimestampStorage;

import java.io.IOException;

/**
 * What the TSOs of one cluster share: the timestamp bound, the commit table, the cluster settings and the lease. In
 * memory for the unit tests ({@link TestTso.Cluster}); in HBase and its ZooKeeper for the integration tests. The
 * contract tests ({@code *Contract}) run against both.
 */
interface TsoCluster {

    /** A builder of one more TSO of this cluster. */
    TsoServer.Builder builder(TidemarkConfig config);

    /** Builds and starts a TSO of this cluster; returns once it serves. */
    default TsoServer start(TidemarkConfig config) throws IOException {
        TsoServer server = builder(config).build();
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    TimestampStorage timestampStorage();

    CommitTable commitTable();

    /** Another TSO, whose holder id is {@code intruder}, takes the lease, as a standby does after a take-over. */
    void takeLease(String intruder) throws Exception;
}
