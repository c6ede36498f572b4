package io.tidemark.chaos.check;

import java.util.ArrayList;
import java.util.List;

/** What the checks found: anomalies, and how many reads could be checked. */
final class Findings {

    private final List<Anomaly> anomalies = new ArrayList<>();
    private long readsChecked;
    private long readsUnchecked;

    void add(Anomaly.Kind kind, String explanation) {
        anomalies.add(new Anomaly(kind, explanation));
    }

    void addAll(List<Anomaly> more) {
        anomalies.addAll(more);
    }

    void checked() {
        readsChecked++;
    }

    /** A read whose expected value depends on a writer nobody can settle any more. */
    void unchecked() {
        readsUnchecked++;
    }

    List<Anomaly> anomalies() {
        return anomalies;
    }

    long readsChecked() {
        return readsChecked;
    }

    long readsUnchecked() {
        return readsUnchecked;
    }
}
