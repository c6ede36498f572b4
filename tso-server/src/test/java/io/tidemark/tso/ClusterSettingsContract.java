package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.HelloReply;
import io.tidemark.tso.cluster.ClusterSettingsMismatchException;
import io.tidemark.writeset.ConflictLevel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Commit mode and conflict level are facts of the cluster, stored with the timestamp table and sent in HELLO. Run in
 * memory ({@link ClusterSettingsTest}) and on HBase ({@code ClusterSettingsOnHBaseTest}).
 */
abstract class ClusterSettingsContract {

    /** The shared parts the TSOs configured by {@code config} run on; each call a cluster of its own. */
    protected abstract TsoCluster cluster(TidemarkConfig config) throws Exception;


    @Test
    void clusterSettingsAreStoredByTheFirstTsoFollowedByLaterOnesAndAnnouncedInHello() throws Exception {
        TidemarkConfig first = TestTso.config("settings_follow", CommitMode.BATCHED);
        TsoCluster cluster = cluster(first);
        first.set(TidemarkConfig.TSO_CONFLICT_LEVEL, "row");
        try (TsoServer server = cluster.start(first)) {
            assertEquals(CommitMode.BATCHED, server.clusterSettings().commitMode());
        }
        TidemarkConfig unset = TestTso.config("settings_follow", CommitMode.BATCHED);
        unset.hadoopConfiguration().unset(TidemarkConfig.TSO_COMMIT_MODE.key());
        try (TsoServer server = cluster.start(unset);
             TsoTestClient client = TsoTestClient.connect(server.port())) {
            HelloReply hello = client.hello();
            assertEquals(CommitMode.BATCHED, hello.commitMode());
            assertEquals(ConflictLevel.ROW, hello.conflictLevel());
        }
    }

    @Test
    void tsoConfiguredDifferentlyFromTheClusterRefusesToStartUnlessReconfiguring() throws Exception {
        TidemarkConfig batched = TestTso.config("settings_mismatch", CommitMode.BATCHED);
        TsoCluster cluster = cluster(batched);
        try (TsoServer server = cluster.start(batched)) {
            assertEquals(CommitMode.BATCHED, server.clusterSettings().commitMode());
        }
        TidemarkConfig lowLatency = TestTso.config("settings_mismatch", CommitMode.LOW_LATENCY);
        try (TsoServer refused = cluster.builder(lowLatency).build()) {
            ClusterSettingsMismatchException e = assertThrows(ClusterSettingsMismatchException.class,
                    refused::startCompeting);
            assertTrue(e.getMessage().contains("low-latency") && e.getMessage().contains("batched"),
                    e.getMessage());
        }
        try (TsoServer reconfiguring = cluster.builder(lowLatency).reconfigureCluster(true).build()) {
            reconfiguring.start();
            assertEquals(CommitMode.LOW_LATENCY, reconfiguring.clusterSettings().commitMode());
        }
        TidemarkConfig unset = TestTso.config("settings_mismatch", CommitMode.LOW_LATENCY);
        unset.hadoopConfiguration().unset(TidemarkConfig.TSO_COMMIT_MODE.key());
        try (TsoServer server = cluster.start(unset)) {
            assertEquals(CommitMode.LOW_LATENCY, server.clusterSettings().commitMode(), "the change stuck");
        }
    }
}
