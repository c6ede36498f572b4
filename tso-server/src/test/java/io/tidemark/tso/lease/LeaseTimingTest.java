package io.tidemark.tso.lease;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The lease's two spans, from its one definition: the holder's ends twice the margin before a standby's starts. */
@Timeout(10)
class LeaseTimingTest {

    private final LeaseTiming timing = new LeaseTiming(Duration.ofMillis(2000), Duration.ofMillis(250),
            Duration.ofMillis(200));

    @Test
    void aRenewalKeepsTheHolderForThePeriodLessTheMargin() {
        assertEquals(Duration.ofMillis(1800).toNanos(), timing.holdNanos());
        assertEquals(5 + timing.holdNanos(), timing.validUntil(5));
    }

    @Test
    void aStandbyTakesOverAfterThePeriodPlusTheMargin() {
        assertEquals(Duration.ofMillis(2200).toNanos(), timing.takeOverAfterNanos());
        assertEquals(2 * timing.marginNanos(), timing.takeOverAfterNanos() - timing.holdNanos());
    }
}
