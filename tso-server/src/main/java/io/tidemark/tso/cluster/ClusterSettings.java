package io.tidemark.tso.cluster;

import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;

import java.util.Objects;

/**
 * The settings every TSO and client of one cluster (one timestamp table) must share: the commit mode (it decides how
 * readers treat a writer without a commit record) and the conflict level (it decides which ids write sets carry).
 * Stored with the timestamp table by the first TSO, checked by every TSO when it takes the lease, and announced to
 * clients in the HELLO reply.
 */
public final class ClusterSettings {

    private final CommitMode commitMode;
    private final ConflictLevel conflictLevel;

    public ClusterSettings(CommitMode commitMode, ConflictLevel conflictLevel) {
        this.commitMode = Objects.requireNonNull(commitMode, "commitMode");
        this.conflictLevel = Objects.requireNonNull(conflictLevel, "conflictLevel");
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public ConflictLevel conflictLevel() {
        return conflictLevel;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterSettings && ((ClusterSettings) o).commitMode == commitMode
                && ((ClusterSettings) o).conflictLevel == conflictLevel;
    }

    @Override
    public int hashCode() {
        return Objects.hash(commitMode, conflictLevel);
    }

    @Override
    public String toString() {
        return "commit mode " + commitMode.configName() + ", conflict level " + conflictLevel.configName();
    }
}
