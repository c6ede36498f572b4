package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;

/** {@link TsoFailoverContract} on in-memory parts. */
class TsoFailoverTest extends TsoFailoverContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new TestTso.Cluster();
    }
}
