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

/** Commit mode and conflict level are facts of the cluster, stored with the timestamp table and sent in HELLO. */
class ClusterSettingsTest {

    @Test
    void clusterSettingsAreStoredByTheFirstTsoFollowedByLaterOnesAndAnnouncedInHello() throws Exception {
        TestTso.Cluster cluster = new TestTso.Cluster();
        TidemarkConfig first = TestTso.config("settings_follow", CommitMode.BATCHED);
        first.set(TidemarkConfig.TSO_CONFLICT_LEVEL, "row");
        try (TsoServer server = cluster.start(first)) {
            assertEquals(CommitMode.BATCHED, server.clusterSettings().commitMode());
        }
        TidemarkConfig unset = TestTso.config("settings_follow", CommitMode.BATCHED);
        unset.hadoopConfiguration().unset(TidemarkConfig.TSO_COMMIT_MODE);
        try (TsoServer server = cluster.start(unset);
             TsoTestClient client = TsoTestClient.connect(server.port())) {
            HelloReply hello = client.hello();
            assertEquals(CommitMode.BATCHED, hello.commitMode());
            assertEquals(ConflictLevel.ROW, hello.conflictLevel());
        }
    }

    @Test
    void tsoConfiguredDifferentlyFromTheClusterRefusesToStartUnlessReconfiguring() throws Exception {
        TestTso.Cluster cluster = new TestTso.Cluster();
        TidemarkConfig batched = TestTso.config("settings_mismatch", CommitMode.BATCHED);
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
        unset.hadoopConfiguration().unset(TidemarkConfig.TSO_COMMIT_MODE);
        try (TsoServer server = cluster.start(unset)) {
            assertEquals(CommitMode.LOW_LATENCY, server.clusterSettings().commitMode(), "the change stuck");
        }
    }
}
