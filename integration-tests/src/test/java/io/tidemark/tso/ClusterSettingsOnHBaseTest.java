package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;

/** {@link ClusterSettingsContract} with the settings in the timestamp table. */
class ClusterSettingsOnHBaseTest extends ClusterSettingsContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new HBaseTsoCluster(config);
    }
}
