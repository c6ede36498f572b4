package io.tidemark.chaos.processes;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.processcluster.ClusterConfiguration;
import io.tidemark.tso.TsoSettings;

import java.util.concurrent.TimeUnit;

/** The timeouts a partition or pause is measured against, read from the run's settings. */
public enum Timeout {

    /** How long an unrenewed lease keeps a TSO active, plus the margin a standby waits on top. */
    LEASE("the TSO lease") {
        @Override
        long millis(TidemarkConfig config) {
            return TimeUnit.NANOSECONDS.toMillis(new TsoSettings(config).leaseTiming().takeOverAfterNanos());
        }
    },
    /** The ZooKeeper session of HBase's servers: a region server silent this long is declared dead. */
    ZOOKEEPER_SESSION("the ZooKeeper session") {
        @Override
        long millis(TidemarkConfig config) {
            return ClusterConfiguration.ZOOKEEPER_SESSION_TIMEOUT_MS;
        }
    },
    /** The commit-record deadline: no commit record is written later than this after the commit was asked for. */
    COMMIT_RECORD("the commit-record deadline") {
        @Override
        long millis(TidemarkConfig config) {
            return new CommitTableSettings(config).commitRecordTimeoutMs();
        }
    },
    /** How long a client's BEGIN or COMMIT waits for the TSO's answer. */
    TSO_REQUEST("the TSO request timeout") {
        @Override
        long millis(TidemarkConfig config) {
            return config.get(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS);
        }
    },
    /**
     * None of Tidemark's: a client cut off from one region server waits in HBase's retries, which last a minute and
     * more; 2.5 s stands for the lengths as "near".
     */
    NONE("2.5 s") {
        @Override
        long millis(TidemarkConfig config) {
            return 2500;
        }
    };

    private final String description;

    Timeout(String description) {
        this.description = description;
    }

    /** The timeout in ms under {@code config}. */
    abstract long millis(TidemarkConfig config);

    @Override
    public String toString() {
        return description;
    }
}
