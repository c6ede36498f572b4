package io.tidemark.chaos.fault;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Injects faults and counts them, by kind: a fault that failed (HBase refused a split, a server did not come back in
 * time) is counted too, its outcome saying why, and never stops the run.
 */
final class FaultAttempts {

    private final FaultTarget target;
    private final Map<String, Integer> byKind = new LinkedHashMap<>();
    private final Set<String> families = new HashSet<>();
    private int injected;

    FaultAttempts(FaultTarget target) {
        this.target = target;
    }

    /** Injects {@code fault} once; returns what happened, or why it failed. */
    String inject(FaultKind fault, Random random) {
        String outcome;
        try {
            outcome = fault.inject(target, random);
        } catch (InterruptedException e) {
            outcome = "interrupted";
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            outcome = "failed: " + e;
        }
        synchronized (this) {
            injected++;
            byKind.merge(fault.description(), 1, Integer::sum);
            families.add(fault.family());
        }
        return outcome;
    }

    synchronized int injected() {
        return injected;
    }

    /** Whether a fault of {@code family} ({@link FaultKind#family()}) was injected. */
    synchronized boolean injected(String family) {
        return families.contains(family);
    }

    synchronized Map<String, Integer> byKind() {
        return new LinkedHashMap<>(byKind);
    }
}
