package io.tidemark.client.sweeper;

import io.tidemark.client.ClientSettings;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;

/**
 * The commit-table sweeper's configuration ({@code tidemark.sweeper.*}, plus the client settings that say where
 * transactional cells are and how long a commit-record write may take), read and validated once: a bad value fails
 * with an {@link InvalidConfigurationException} naming the key.
 */
public final class SweeperSettings {

    private final ClientSettings client;
    private final long committedAgeMs;
    private final long invalidatedAgeMs;
    private final long markerMarginMs;
    private final int batch;

    public SweeperSettings(TidemarkConfig config) {
        client = new ClientSettings(config);
        committedAgeMs = config.get(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS);
        invalidatedAgeMs = config.get(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS);
        long commitRecordTimeoutMs = client.commitTable().commitRecordTimeoutMs();
        if (invalidatedAgeMs <= commitRecordTimeoutMs) {
            throw new InvalidConfigurationException(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS,
                    String.valueOf(invalidatedAgeMs), "more than " + TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS
                            + " (" + commitRecordTimeoutMs + " ms): a younger marker may belong to a writer whose"
                            + " commit-record write is still allowed");
        }
        markerMarginMs = config.get(TidemarkConfig.SWEEPER_MARKER_MARGIN_MS);
        batch = config.get(TidemarkConfig.SWEEPER_BATCH);
    }

    /** The commit table, the tables' requirements, and the commit-record deadline. */
    public ClientSettings client() {
        return client;
    }

    /** A commit record older than this belongs to a client that died before its post-commit. */
    public long committedAgeMs() {
        return committedAgeMs;
    }

    /** An invalidation marker younger than this is left alone. */
    public long invalidatedAgeMs() {
        return invalidatedAgeMs;
    }

    /**
     * How long after reading the low watermark a pass waits before it removes markers: the commit-record timeout
     * plus {@code tidemark.sweeper.marker-margin-ms}. By then no commit-record write of a writer at or below that
     * watermark can still arrive.
     */
    public long markerRemovalDelayMs() {
        return client.commitTable().commitRecordTimeoutMs() + markerMarginMs;
    }

    /** Records handled per pass. */
    public int batch() {
        return batch;
    }
}
