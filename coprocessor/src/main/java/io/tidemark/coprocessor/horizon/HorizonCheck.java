package io.tidemark.coprocessor.horizon;

import java.io.IOException;

/** Refuses a transactional read whose snapshot fell to or below its region's {@link GcHorizon}; run after reading. */
@FunctionalInterface
public interface HorizonCheck {

    /** A check for reads that nothing collects from. */
    HorizonCheck NONE = () -> { };

    /** @throws io.tidemark.gc.SnapshotTooOldException when the snapshot is at or below the horizon */
    void afterRead() throws IOException;
}
