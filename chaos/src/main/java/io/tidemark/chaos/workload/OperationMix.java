package io.tidemark.chaos.workload;

/**
 * What share of a client's work is of which kind; the rest are short generic transactions.
 *
 * @param fastPath fraction of operations run through the fast path
 * @param longReaders fraction of generic transactions that are read-only and keep their snapshot for seconds (so
 *        flushes, compactions and TSO restarts happen under them)
 * @param slowWriters fraction of generic transactions that pause between their writes (so readers meet, and may
 *        invalidate, their tentative writes while they still run)
 */
public record OperationMix(double fastPath, double longReaders, double slowWriters) {

    public OperationMix {
        for (double share : new double[] {fastPath, longReaders, slowWriters}) {
            if (share < 0 || share > 1) {
                throw new IllegalArgumentException("shares are fractions from 0 to 1, got " + share);
            }
        }
        if (longReaders + slowWriters > 1) {
            throw new IllegalArgumentException("long readers and slow writers together exceed all transactions");
        }
    }
}
