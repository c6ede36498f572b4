package io.tidemark.bench;

import java.nio.file.Path;
import java.time.Duration;

/** What every measured benchmark run is given besides its workload: warm-up, measured time, output folder. */
public final class RunSettings {

    private RunSettings() {
    }

    /** @throws IllegalArgumentException naming the setting that is missing or out of range */
    public static void check(Duration warmup, Duration duration, Path outputFolder) {
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (outputFolder == null) {
            throw new IllegalArgumentException("output folder is required");
        }
    }
}
