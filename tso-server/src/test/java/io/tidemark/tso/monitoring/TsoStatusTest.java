package io.tidemark.tso.monitoring;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TsoStatusTest {

    @Test
    void healthBodyReadsBackAsWritten() {
        TsoStatus written = TsoStatus.builder(TsoRole.ACTIVE).version("1.2.3").address("tso1:54758")
                .httpAddress("tso1:54759").serving(4096, "batched", "row").uptimeMs(61_000)
                .conflictMap(8192, 0.25).connections(7).leaseRemainingMs(1500).activeTso("tso1:54758")
                .lastError("commit table \"down\"\nretrying", 30).build();
        TsoStatus read = TsoStatus.fromJson(written.toJson());
        assertEquals(written.toJson(), read.toJson());
        assertEquals(TsoRole.ACTIVE, read.role());
        assertEquals("batched", read.commitMode());
        assertEquals(0.25, read.conflictMapFill());
        assertEquals("commit table \"down\"\nretrying", read.lastError());
        assertTrue(read.healthy());
    }

    @Test
    void unknownFieldsOfLaterVersionsAreIgnoredAndMissingOnesAreUnknown() {
        TsoStatus read = TsoStatus.fromJson("{\"role\":\"standby\",\"zone\":\"eu\",\"limits\":{\"a\":[1,2]},"
                + "\"connections\":3}");
        assertEquals(TsoRole.STANDBY, read.role());
        assertEquals(3, read.connections());
        assertNull(read.lastError());
        assertEquals(-1, read.lastErrorAgeMs());
        assertEquals(-1, read.leaseRemainingMs());
        assertTrue(read.healthy());
    }

    @Test
    void startingAndStoppedAreUnhealthy() {
        assertFalse(TsoStatus.builder(TsoRole.STARTING).build().healthy());
        assertFalse(TsoStatus.builder(TsoRole.STOPPED).build().healthy());
    }

    @Test
    void somethingElseIsRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TsoStatus.fromJson("<html>"))
                .getMessage().startsWith("not a TSO status"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TsoStatus.fromJson("{\"epoch\":1}"))
                .getMessage().contains("role"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TsoStatus.fromJson("{\"role\":\"king\"}"))
                .getMessage().contains("king"));
    }
}
