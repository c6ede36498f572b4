package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.KeySpace;

/**
 * What a client does.
 *
 * @param maxOpsPerTransaction most reads and writes in one generic transaction
 */
public record WorkloadSettings(KeySpace keySpace, OperationMix mix, int maxOpsPerTransaction) {

    public WorkloadSettings {
        if (maxOpsPerTransaction < 1) {
            throw new IllegalArgumentException("a transaction needs at least one operation");
        }
    }
}
