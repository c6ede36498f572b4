package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;

/** {@link ClusterSettingsContract} on in-memory parts. */
class ClusterSettingsTest extends ClusterSettingsContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new TestTso.Cluster();
    }
}
