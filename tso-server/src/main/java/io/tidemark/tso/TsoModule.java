package io.tidemark.tso;

import com.codahale.metrics.MetricRegistry;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.name.Names;
import io.tidemark.committable.CommitTable;
import io.tidemark.tso.cluster.ClusterSettingsStore;
import io.tidemark.tso.lease.LeaseElectionFactory;
import io.tidemark.tso.timestamp.TimestampStorage;

/** Guice wiring of a TSO server: settings and the parts it works with in, the server out. */
final class TsoModule extends AbstractModule {

    static final String RECONFIGURE_CLUSTER = "reconfigure-cluster";

    private final TsoSettings settings;
    private final TimestampStorage timestampStorage;
    private final CommitTable commitTable;
    private final ClusterSettingsStore clusterSettingsStore;
    private final LeaseElectionFactory elections;
    private final MetricRegistry registry;
    private final TsoServer.Listener listener;
    private final boolean reconfigure;

    TsoModule(TsoSettings settings, TimestampStorage timestampStorage, CommitTable commitTable,
              ClusterSettingsStore clusterSettingsStore, LeaseElectionFactory elections, MetricRegistry registry,
              TsoServer.Listener listener, boolean reconfigure) {
        this.settings = settings;
        this.timestampStorage = timestampStorage;
        this.commitTable = commitTable;
        this.clusterSettingsStore = clusterSettingsStore;
        this.elections = elections;
        this.registry = registry;
        this.listener = listener;
        this.reconfigure = reconfigure;
    }

    @Override
    protected void configure() {
        bind(TsoSettings.class).toInstance(settings);
        bind(TimestampStorage.class).toInstance(timestampStorage);
        bind(CommitTable.class).toInstance(commitTable);
        bind(ClusterSettingsStore.class).toInstance(clusterSettingsStore);
        bind(LeaseElectionFactory.class).toInstance(elections);
        bind(MetricRegistry.class).toInstance(registry);
        bind(TsoServer.Listener.class).toInstance(listener);
        bindConstant().annotatedWith(Names.named(RECONFIGURE_CLUSTER)).to(reconfigure);
    }

    @Provides
    @Singleton
    TsoMetrics metrics(MetricRegistry metricRegistry) {
        return new TsoMetrics(metricRegistry);
    }
}
