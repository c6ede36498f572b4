package io.tidemark.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.monitoring.TsoRole;
import io.tidemark.tso.monitoring.TsoStatus;
import io.tidemark.version.TidemarkVersion;

import org.jspecify.annotations.Nullable;
import java.util.concurrent.TimeUnit;

/**
 * What a TSO reports about itself (/health, {@code ./tidemark status}, the status gauges), from what the server knows
 * at the moment of asking. Any thread; never blocks.
 */
final class StatusReporter {

    private final TsoMetrics metrics;
    private volatile long startedNanos;

    StatusReporter(TsoMetrics metrics) {
        this.metrics = metrics;
    }

    /** Uptime counts from now. */
    void startClock() {
        startedNanos = System.nanoTime();
    }

    /**
     * @param role what the server is doing now
     * @param stopReason why it stopped, or null
     * @param address where clients reach it, or null before it is bound
     * @param httpAddress its HTTP endpoint, or null when there is none
     * @param serving the incarnation it serves, or null when it does not serve now
     * @param activeHolder the lease's holder as last seen, or null
     */
    TsoStatus report(TsoRole role, @Nullable String stopReason, @Nullable HostAndPort address,
            @Nullable HostAndPort httpAddress, @Nullable ActiveIncarnation serving,
            @Nullable TsoLeaseNode activeHolder) {
        TsoStatus.Builder status = TsoStatus.builder(role)
                .version(TidemarkVersion.current())
                .uptimeMs(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos))
                .connections(metrics.connections().getCount());
        if (stopReason != null) {
            status.stopReason(stopReason);
        }
        if (address != null) {
            status.address(address.toString());
        }
        if (httpAddress != null) {
            status.httpAddress(httpAddress.toString());
        }
        if (serving != null) {
            ClusterSettings cluster = serving.clusterSettings();
            status.serving(serving.epoch(), cluster.commitMode().configName(), cluster.conflictLevel().configName())
                    .conflictMap(serving.conflictMap().publishedLowWatermark(), serving.conflictMap().fill())
                    .leaseRemainingMs(TimeUnit.NANOSECONDS.toMillis(Math.min(serving.lease().remainingNanos(),
                            Long.MAX_VALUE / 2)));
        }
        if (activeHolder != null) {
            status.activeTso(activeHolder.address().toString());
        }
        TsoMetrics.LastError error = metrics.lastError();
        if (error != null) {
            status.lastError(error.message(), error.ageMillis());
        }
        return status.build();
    }
}
