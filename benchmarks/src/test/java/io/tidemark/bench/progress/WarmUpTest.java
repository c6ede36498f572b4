package io.tidemark.bench.progress;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.LongUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmUpTest {

    /** A clock the warm-up's sleeps advance, and a compiler whose total compile time is a function of it. */
    private static final class FakeJvm {
        long nowMillis;
        final LongUnaryOperator compileMillisAt;

        FakeJvm(LongUnaryOperator compileMillisAt) {
            this.compileMillisAt = compileMillisAt;
        }

        WarmUp warmUp() {
            return new WarmUp(() -> compileMillisAt.applyAsLong(nowMillis), millis -> nowMillis += millis);
        }
    }

    /** Compiles {@code busyMillisPerSecond} per second until {@code quietFromMillis}, nothing after. */
    private static LongUnaryOperator busyUntil(long quietFromMillis, long busyMillisPerSecond) {
        return now -> Math.min(now, quietFromMillis) * busyMillisPerSecond / 1000;
    }

    @Test
    void aZeroMinimumIsNoWarmUpAtAll() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(busyUntil(Long.MAX_VALUE, 900));
        WarmUp.Outcome outcome = jvm.warmUp().run(Duration.ZERO);
        assertEquals(Duration.ZERO, outcome.lasted());
        assertEquals(0, jvm.nowMillis);
    }

    @Test
    void endsAtItsMinimumWhenTheCompilerIsAlreadyQuiet() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(now -> 12_345);
        WarmUp.Outcome outcome = jvm.warmUp().run(Duration.ofSeconds(3));
        assertEquals(Duration.ofSeconds(3), outcome.lasted());
        assertTrue(outcome.settled());
    }

    @Test
    void goesOnWhileTheCompilerIsBusyAndEndsOnceAWholeWindowWasQuiet() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(busyUntil(20_000, 500));
        WarmUp.Outcome outcome = jvm.warmUp().run(Duration.ofSeconds(3));
        assertEquals(Duration.ofMillis(20_000).plus(WarmUp.WINDOW), outcome.lasted());
        assertTrue(outcome.settled());
        assertEquals("23 s, JIT settled", outcome.describe());
    }

    @Test
    void compilingUnderTheSettledShareCountsAsSettled() throws InterruptedException {
        long justUnder = (long) (WarmUp.SETTLED_SHARE * 1000) - 10;
        FakeJvm jvm = new FakeJvm(busyUntil(Long.MAX_VALUE, justUnder));
        assertEquals(Duration.ofSeconds(5), jvm.warmUp().run(Duration.ofSeconds(5)).lasted());
    }

    @Test
    void aCompilerThatNeverSettlesEndsTheWarmUpAtTheLongest() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(busyUntil(Long.MAX_VALUE, 300));
        WarmUp.Outcome outcome = jvm.warmUp().run(Duration.ofSeconds(3));
        assertEquals(WarmUp.LONGEST, outcome.lasted());
        assertFalse(outcome.settled());
        assertEquals("60 s, JIT still compiling", outcome.describe());
    }

    @Test
    void aMinimumLongerThanTheLongestIsKeptWhateverTheCompilerDoes() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(busyUntil(Long.MAX_VALUE, 300));
        Duration minimum = WarmUp.LONGEST.plusSeconds(30);
        assertEquals(minimum, jvm.warmUp().run(minimum).lasted());
    }

    @Test
    void aJvmThatDoesNotTellItsCompileTimeCountsAsSettled() throws InterruptedException {
        FakeJvm jvm = new FakeJvm(now -> -1);
        WarmUp.Outcome outcome = jvm.warmUp().run(Duration.ofMillis(2_500));
        assertEquals(Duration.ofMillis(2_500), outcome.lasted());
        assertTrue(outcome.settled());
    }

    @Test
    void aNegativeMinimumIsRefused() {
        FakeJvm jvm = new FakeJvm(now -> 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> jvm.warmUp().run(Duration.ofSeconds(-1)));
        assertEquals("warm-up must not be negative, got PT-1S", e.getMessage());
    }

    @Test
    void theRuleNamesTheMinimumAndTheLongest() {
        assertEquals("Warm-up at least 3 s, and until the JIT compiler settles (at most 60 s)",
                WarmUp.rule(Duration.ofSeconds(3)));
        assertEquals("No warm-up", WarmUp.rule(Duration.ZERO));
    }
}
