package io.tidemark.chaos.check;

import java.util.List;

/**
 * The verdict on one history.
 *
 * @param transactions generic transactions recorded (including the verifier's)
 * @param fastPathOperations fast-path operations recorded
 * @param committed transactions and fast-path writes settled as committed
 * @param singleRegionCommits generic transactions settled as committed at a version their region minted (a
 *        single-region commit), not through the TSO
 * @param readsChecked reads (every key of a scan counts) whose expected value was computed and compared
 * @param readsUnchecked reads whose expected value depends on a writer nobody can settle any more
 */
public record CheckResult(long transactions, long fastPathOperations, long committed, long singleRegionCommits,
                          long readsChecked, long readsUnchecked, List<Anomaly> anomalies) {

    public CheckResult {
        anomalies = List.copyOf(anomalies);
    }

    public boolean clean() {
        return anomalies.isEmpty();
    }
}
