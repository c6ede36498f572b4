package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;

/** {@link TsoFailoverContract} on HBase and its ZooKeeper. */
class TsoFailoverOnHBaseTest extends TsoFailoverContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new HBaseTsoCluster(config);
    }
}
