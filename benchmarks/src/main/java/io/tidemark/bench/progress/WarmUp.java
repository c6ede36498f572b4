package io.tidemark.bench.progress;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A benchmark's warm-up: at least the minimum it is given, then on until the JIT compiler has settled. Without the
 * second part, the first scenario of a run is measured while the JVM still compiles the code every scenario runs
 * (in {@code bench e2e} on hdfs the compiler threads took 1 to 1.7 s of compile time per second through most of the
 * first scenario's 20 measured seconds, and later scenarios found that code compiled), which makes whatever runs first look
 * slow.
 *
 * <p>Settled means the compiler spent under {@link #SETTLED_SHARE} of the last {@link #WINDOW} compiling, by the
 * JVM's compilation bean; a JVM that does not tell counts as settled. A warm-up lasts at most {@link #LONGEST}, or its
 * minimum when that is longer. A minimum of zero is no warm-up at all (the smoke tests' setting).
 */
public final class WarmUp {

    /** Share of the window's wall time the compiler may still spend compiling once settled. */
    public static final double SETTLED_SHARE = 0.10;
    /** How far back the compiler's activity is judged. */
    public static final Duration WINDOW = Duration.ofSeconds(3);
    /** The longest a warm-up goes on waiting for the compiler, in seconds. */
    public static final int LONGEST_SECONDS = 60;
    /** The longest a warm-up goes on waiting for the compiler. */
    public static final Duration LONGEST = Duration.ofSeconds(LONGEST_SECONDS);

    private static final long STEP_MILLIS = 1000;

    /** Waits while the benchmark's clients run; a {@link ProgressClock} counts the time as progress. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    /** How a warm-up ended: its length, and whether the compiler had settled by then. */
    public record Outcome(Duration lasted, boolean settled) {

        /** For log lines: "27 s, JIT settled" or "60 s, JIT still compiling". */
        public String describe() {
            return lasted.toSeconds() + " s, " + (settled ? "JIT settled" : "JIT still compiling");
        }
    }

    private final LongSupplier compileMillis;
    private final Sleeper sleeper;

    /** The rule, for a benchmark's notes: "Warm-up at least 3 s, and until the JIT compiler settles (at most 60 s)". */
    public static String rule(Duration minimum) {
        if (minimum.isZero()) {
            return "No warm-up";
        }
        return "Warm-up at least " + minimum.toSeconds() + " s, and until the JIT compiler settles (at most "
                + Math.max(minimum.toSeconds(), LONGEST.toSeconds()) + " s)";
    }

    /**
     * @param compileMillis the JVM's total compile time so far, in milliseconds; negative when it is not known
     */
    WarmUp(LongSupplier compileMillis, Sleeper sleeper) {
        this.compileMillis = compileMillis;
        this.sleeper = sleeper;
    }

    /** A warm-up judged by this JVM's compiler, waiting through {@code sleeper}. */
    public static WarmUp ofThisJvm(Sleeper sleeper) {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return new WarmUp(() -> -1, sleeper);
        }
        return new WarmUp(compiler::getTotalCompilationTime, sleeper);
    }

    /**
     * Waits at least {@code minimum}, then until the compiler has settled or the warm-up has lasted {@link #LONGEST}.
     *
     * @throws IllegalArgumentException when {@code minimum} is missing or negative
     */
    public Outcome run(Duration minimum) throws InterruptedException {
        checkMinimum(minimum);
        long minimumMillis = minimum.toMillis();
        if (minimumMillis == 0) {
            return new Outcome(Duration.ZERO, true);
        }
        long longestMillis = Math.max(minimumMillis, LONGEST.toMillis());
        List<Sample> samples = new ArrayList<>();
        long elapsed = 0;
        samples.add(new Sample(elapsed, compileMillis.getAsLong()));
        while (true) {
            long until = elapsed < minimumMillis ? minimumMillis : longestMillis;
            long step = Math.min(STEP_MILLIS, until - elapsed);
            sleeper.sleep(step);
            elapsed += step;
            samples.add(new Sample(elapsed, compileMillis.getAsLong()));
            boolean settled = settled(samples);
            if (elapsed >= minimumMillis && (settled || elapsed >= longestMillis)) {
                return new Outcome(Duration.ofMillis(elapsed), settled);
            }
        }
    }

    /**
     * Refuses a warm-up minimum that is missing or negative (zero is no warm-up).
     *
     * @throws IllegalArgumentException naming the warm-up
     */
    public static void checkMinimum(Duration minimum) {
        if (minimum == null || minimum.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + minimum);
        }
    }

    /** The JVM's total compile time, read {@code elapsedMillis} into the warm-up. */
    private record Sample(long elapsedMillis, long compileMillis) {
    }

    /** Whether the compiler spent under its share of the last window compiling, judged from the latest sample. */
    private static boolean settled(List<Sample> samples) {
        Sample latest = samples.get(samples.size() - 1);
        if (latest.compileMillis() < 0) {
            return true;
        }
        long windowStart = latest.elapsedMillis() - WINDOW.toMillis();
        for (int i = samples.size() - 1; i >= 0; i--) {
            Sample start = samples.get(i);
            if (start.elapsedMillis() <= windowStart) {
                long spanMillis = latest.elapsedMillis() - start.elapsedMillis();
                return latest.compileMillis() - start.compileMillis() < SETTLED_SHARE * spanMillis;
            }
        }
        return false;
    }
}
