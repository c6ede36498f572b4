package io.tidemark.bench.breakdown;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Each transaction's cost in units of raw HBase doing the same operations, within one run (issue 14's ratio targets):
 * for every kind of transaction of every transactional mode, its mean and p50 over the mean and p50 of the same kind
 * in each raw mode of the run.
 */
final class BaselineRatios {

    private BaselineRatios() {
    }

    /** The ratios, or empty when the run measured no raw mode or no transactional one. */
    static Optional<ResultTable> of(List<BreakdownResult> results) {
        List<TxMode> baselines = modes(results, false);
        List<TxMode> transactional = modes(results, true);
        if (baselines.isEmpty() || transactional.isEmpty()) {
            return Optional.empty();
        }
        List<String> columns = new ArrayList<>(List.of("mode", "transaction"));
        for (TxMode baseline : baselines) {
            columns.add("mean_over_" + baseline.label());
            columns.add("p50_over_" + baseline.label());
        }
        ResultTable table = new ResultTable(columns.toArray(new String[0]));
        for (BreakdownResult r : results) {
            if (!r.mode().isTransactional()) {
                continue;
            }
            List<Object> row = new ArrayList<>(List.of(r.mode().label(), r.scenario()));
            for (TxMode baseline : baselines) {
                TxMeasurement raw = find(results, baseline, r.scenario());
                row.add(LatencySummary.ratio(r.measurement().latency().meanMs(), raw.latency().meanMs()));
                row.add(LatencySummary.ratio(r.measurement().latency().p50Ms(), raw.latency().p50Ms()));
            }
            table.addRow(row.toArray());
        }
        return Optional.of(table);
    }

    private static List<TxMode> modes(List<BreakdownResult> results, boolean transactional) {
        return results.stream().map(BreakdownResult::mode).filter(m -> m.isTransactional() == transactional)
                .distinct().toList();
    }

    private static TxMeasurement find(List<BreakdownResult> results, TxMode mode, String scenario) {
        return results.stream().filter(r -> r.mode() == mode && r.scenario().equals(scenario)).findFirst()
                .orElseThrow().measurement();
    }
}
