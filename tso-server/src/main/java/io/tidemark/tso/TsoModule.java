package io.tidemark.tso;

import com.codahale.metrics.MetricRegistry;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.hadoop.hbase.client.Connection;

/** Guice wiring of a TSO server: configuration and HBase connection in, server parts out. */
public final class TsoModule extends AbstractModule {

    private final TidemarkConfig config;
    private final Connection connection;
    private final MetricRegistry registry;

    public TsoModule(TidemarkConfig config, Connection connection, MetricRegistry registry) {
        this.config = config;
        this.connection = connection;
        this.registry = registry;
    }

    @Override
    protected void configure() {
        bind(TidemarkConfig.class).toInstance(config);
        bind(Connection.class).toInstance(connection);
        bind(MetricRegistry.class).toInstance(registry);
    }

    @Provides
    @Singleton
    TsoSettings settings(TidemarkConfig tidemarkConfig) {
        return new TsoSettings(tidemarkConfig);
    }

    @Provides
    @Singleton
    TsoMetrics metrics(MetricRegistry metricRegistry) {
        return new TsoMetrics(metricRegistry);
    }

    @Provides
    @Singleton
    CommitTable commitTable(Connection hbase, TsoSettings settings) {
        return new HBaseCommitTable(hbase, settings.commitTable());
    }

    @Provides
    @Singleton
    HBaseTimestampStorage timestampStorage(Connection hbase, TsoSettings settings) {
        return new HBaseTimestampStorage(hbase, settings.timestampTable());
    }
}
