package io.tidemark.chaos.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Where a run's time went, phase by phase, for its report. */
final class PhaseClock {

    private final List<String> phases = new ArrayList<>();
    private long last = System.nanoTime();

    /** Ends the phase called {@code name}. */
    void end(String name) {
        long now = System.nanoTime();
        phases.add(String.format(Locale.ROOT, "%s %.1f s", name, (now - last) / 1e9));
        last = now;
    }

    @Override
    public String toString() {
        return String.join(", ", phases);
    }
}
