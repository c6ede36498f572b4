package io.tidemark.tso.cluster;

import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterSettingsAgreementTest {

    private static final ClusterSettings BATCHED_ROW = new ClusterSettings(CommitMode.BATCHED, ConflictLevel.ROW);

    @Test
    void firstTsoStoresItsConfiguredValuesOrTheDefaults() throws IOException {
        InMemoryClusterSettingsStore store = new InMemoryClusterSettingsStore();
        assertEquals(new ClusterSettings(CommitMode.LOW_LATENCY, ConflictLevel.CELL),
                agreement(null, null, false).agree(store));
        assertEquals(new ClusterSettings(CommitMode.LOW_LATENCY, ConflictLevel.CELL), store.read());

        InMemoryClusterSettingsStore other = new InMemoryClusterSettingsStore();
        assertEquals(BATCHED_ROW, agreement(CommitMode.BATCHED, ConflictLevel.ROW, false).agree(other));
        assertEquals(BATCHED_ROW, other.read());
    }

    @Test
    void tsoWithoutExplicitSettingsFollowsTheCluster() throws IOException {
        InMemoryClusterSettingsStore store = new InMemoryClusterSettingsStore();
        store.initialize(BATCHED_ROW);
        assertEquals(BATCHED_ROW, agreement(null, null, false).agree(store));
        assertEquals(BATCHED_ROW, agreement(CommitMode.BATCHED, null, false).agree(store));
    }

    @Test
    void explicitSettingThatDiffersIsRefusedNamingBothValuesAndTheWayOut() throws IOException {
        InMemoryClusterSettingsStore store = new InMemoryClusterSettingsStore();
        store.initialize(BATCHED_ROW);
        ClusterSettingsAgreement lowLatency = agreement(CommitMode.LOW_LATENCY, ConflictLevel.CELL, false);
        ClusterSettingsMismatchException e = assertThrows(ClusterSettingsMismatchException.class,
                () -> lowLatency.check(store));
        assertTrue(e.getMessage().contains("tidemark.tso.commit-mode=low-latency"), e.getMessage());
        assertTrue(e.getMessage().contains("the cluster's commit mode is batched"), e.getMessage());
        assertTrue(e.getMessage().contains("tidemark.tso.conflict-level=cell"), e.getMessage());
        assertTrue(e.getMessage().contains("the cluster's conflict level is row"), e.getMessage());
        assertTrue(e.getMessage().contains("--reconfigure"), e.getMessage());
        assertThrows(ClusterSettingsMismatchException.class, () -> lowLatency.agree(store));
        assertEquals(BATCHED_ROW, store.read(), "a refused TSO changes nothing");
    }

    @Test
    void reconfiguringTsoReplacesTheClusterSettingsItSets() throws IOException {
        InMemoryClusterSettingsStore store = new InMemoryClusterSettingsStore();
        store.initialize(BATCHED_ROW);
        ClusterSettingsAgreement reconfigure = agreement(CommitMode.LOW_LATENCY, null, true);
        reconfigure.check(store);
        ClusterSettings agreed = reconfigure.agree(store);
        assertEquals(new ClusterSettings(CommitMode.LOW_LATENCY, ConflictLevel.ROW), agreed);
        assertEquals(agreed, store.read());
    }

    private static ClusterSettingsAgreement agreement(CommitMode mode, ConflictLevel level, boolean reconfigure) {
        return new ClusterSettingsAgreement(mode, level, reconfigure, "the test store");
    }
}
