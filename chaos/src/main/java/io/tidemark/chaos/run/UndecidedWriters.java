package io.tidemark.chaos.run;

import io.tidemark.chaos.check.StoreImage;
import io.tidemark.chaos.check.StoredVersion;
import io.tidemark.chaos.history.Key;
import io.tidemark.committable.CommitTable;
import io.tidemark.timestamp.Timestamps;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settles the writers the clients could not: once every client has stopped, a tentative version with no shadow cell
 * and no commit record belongs to a transaction that will never write its record (its client was killed, or lost
 * the answer). Invalidating it, as a reader would, makes the outcome final: afterwards the commit table says
 * committed (the record was there first) or invalidated.
 */
final class UndecidedWriters {

    private UndecidedWriters() {
    }

    /** Invalidates every undecided writer in {@code image}; returns how many there were. */
    static int settle(StoreImage image, CommitTable commitTable) throws IOException {
        Set<Long> undecided = new TreeSet<>();
        for (Key key : image.keys()) {
            for (StoredVersion v : image.versionsOf(key).values()) {
                if (!v.hasShadowCell() && image.commitRecord(v.version()) == null
                        && Timestamps.isTsoTimestamp(v.version())) {
                    undecided.add(v.version());
                }
            }
        }
        for (long start : undecided) {
            commitTable.invalidate(start);
        }
        return undecided.size();
    }
}
