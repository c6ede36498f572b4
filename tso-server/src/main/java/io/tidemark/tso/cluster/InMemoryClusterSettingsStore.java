package io.tidemark.tso.cluster;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.jspecify.annotations.Nullable;

/** Cluster settings kept in memory, with the same contract as the HBase store (tests, single-process use). */
public final class InMemoryClusterSettingsStore implements ClusterSettingsStore {

    @GuardedBy("this")
    private @Nullable ClusterSettings stored;

    @Override
    public synchronized @Nullable ClusterSettings read() {
        return stored;
    }

    @Override
    public synchronized ClusterSettings initialize(ClusterSettings proposed) {
        if (stored == null) {
            stored = proposed;
        }
        return stored;
    }

    @Override
    public synchronized void overwrite(ClusterSettings settings) {
        stored = settings;
    }
}
