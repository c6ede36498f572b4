package io.tidemark.chaos.check;

/**
 * One version of one key as the store holds it after the run.
 *
 * @param version the HBase version (a generic writer's start timestamp, or a fast-path version)
 * @param value the data cell's value; {@code null} when the version is a deletion (or has no data cell)
 * @param deleted whether a deleting tombstone is stored at this version
 * @param shadowCommit the commit timestamp in the shadow cell; 0 when there is no shadow cell
 */
public record StoredVersion(long version, String value, boolean deleted, long shadowCommit) {

    public boolean hasShadowCell() {
        return shadowCommit > 0;
    }

    /** The value a reader gets from this version: {@code null} for a deletion. */
    public String visibleValue() {
        return deleted ? null : value;
    }
}
