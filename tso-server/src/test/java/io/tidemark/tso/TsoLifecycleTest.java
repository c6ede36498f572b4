package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.monitoring.TsoRole;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one way a TSO server's life goes: built, started once, active, closed for good. */
@Timeout(60)
class TsoLifecycleTest {

    @Test
    void aServerIsStartingUntilStartedAndStartsOnlyOnce() throws IOException {
        TidemarkConfig config = TestTso.config("lifecycle_once", CommitMode.LOW_LATENCY);
        try (TsoServer tso = new TestTso.Cluster().builder(config).build()) {
            assertEquals(TsoRole.STARTING, tso.status().role());
            assertThrows(IllegalStateException.class, tso::port, "nothing is bound before the start");
            tso.start();
            assertEquals(TsoRole.ACTIVE, tso.status().role());
            assertThrows(IllegalStateException.class, tso::startCompeting);
        }
    }

    @Test
    void aClosedServerIsStoppedForGoodAndKeepsWhatItServedWith() throws IOException {
        TidemarkConfig config = TestTso.config("lifecycle_closed", CommitMode.BATCHED);
        TsoServer tso = TestTso.start(config);
        long epoch = tso.epoch();
        tso.close();
        assertFalse(tso.isActive());
        assertEquals(TsoRole.STOPPED, tso.status().role());
        assertEquals(epoch, tso.epoch());
        assertEquals(CommitMode.BATCHED, tso.clusterSettings().commitMode());
        assertThrows(IllegalStateException.class, tso::startCompeting, "a closed server never starts again");
        tso.close();
        assertTrue(tso.status().stopReason().contains("closed"), tso.status().stopReason());
    }

    @Test
    void aServerClosedBeforeItStartedNeverServes() throws IOException {
        TidemarkConfig config = TestTso.config("lifecycle_unstarted", CommitMode.LOW_LATENCY);
        TsoServer tso = new TestTso.Cluster().builder(config).build();
        tso.close();
        assertEquals(TsoRole.STOPPED, tso.status().role());
        assertThrows(IllegalStateException.class, tso::startCompeting);
    }
}
