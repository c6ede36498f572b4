package io.tidemark.bench.tpcc;

import io.tidemark.bench.txn.TxMode;

import java.util.List;
import java.util.Map;

/**
 * Everything "bench tpcc" found: the measured runs, and per mode the consistency conditions its tables violated after
 * its runs (empty lists when all held).
 */
public record TpccRun(List<TpccResult> results, Map<TxMode, List<String>> violations) {

    public TpccRun {
        results = List.copyOf(results);
        violations = Map.copyOf(violations);
    }

    /** Whether every mode's tables met consistency conditions 1 to 4. */
    public boolean consistent() {
        return violations.values().stream().allMatch(List::isEmpty);
    }
}
