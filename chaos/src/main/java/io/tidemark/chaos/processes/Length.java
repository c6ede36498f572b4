package io.tidemark.chaos.processes;

import java.util.Locale;

/** How long a partition or a pause lasts, against the timeout it is about: below it, near it, or above it. */
public enum Length {
    BELOW(0.5),
    NEAR(1.0),
    ABOVE(2.0);

    private final double factor;

    Length(double factor) {
        this.factor = factor;
    }

    /** The length in ms, for a timeout of {@code timeoutMillis}. */
    public long of(long timeoutMillis) {
        return Math.round(timeoutMillis * factor);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
