package io.tidemark.tso.cluster;

import org.jspecify.annotations.Nullable;

import java.io.IOException;

/** Durable home of the {@link ClusterSettings}. */
public interface ClusterSettingsStore {

    /** The stored settings, or null when no TSO has stored any yet. */
    @Nullable ClusterSettings read() throws IOException;

    /**
     * Stores {@code proposed} unless settings are stored already (atomically: of two TSOs starting together, one
     * wins).
     *
     * @return the settings stored afterwards: {@code proposed}, or what another TSO stored first
     */
    ClusterSettings initialize(ClusterSettings proposed) throws IOException;

    /** Replaces the stored settings; only the lease holder calls it, for a deliberate change. */
    void overwrite(ClusterSettings settings) throws IOException;
}
