package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.KeySpace;

/**
 * What a client does.
 *
 * @param fastPathShare fraction of operations run through the fast path (0: generic transactions only)
 * @param longReaderShare fraction of generic transactions that are long-running read-only readers (several seconds
 *        between reads, so flushes, compactions and restarts happen under them)
 * @param maxOpsPerTransaction most reads and writes in one generic transaction
 */
public record WorkloadSettings(KeySpace keySpace, double fastPathShare, double longReaderShare,
                               int maxOpsPerTransaction) {

    public WorkloadSettings {
        if (fastPathShare < 0 || fastPathShare > 1 || longReaderShare < 0 || longReaderShare > 1) {
            throw new IllegalArgumentException("shares are fractions from 0 to 1");
        }
        if (maxOpsPerTransaction < 1) {
            throw new IllegalArgumentException("a transaction needs at least one operation");
        }
    }
}
