package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;

/** {@link TsoRestartContract} on in-memory parts. */
class RestartTest extends TsoRestartContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new TestTso.Cluster();
    }
}
