package io.tidemark.bench.fanout;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;

import java.util.List;

/**
 * What "bench fanout" runs.
 *
 * @param operations one run per entry: operations per transaction (alternately a write and a read of a distinct row)
 * @param fanouts    most operations in flight at once; 1 is sequential issue, and an entry above n counts as n
 * @param regions    regions the table is split into, the rows spread evenly over them
 * @param keys       rows preloaded and chosen from, uniformly
 * @param valueBytes bytes per written value
 * @param apis       one series per API the operations go through
 */
public record FanoutOptions(List<Integer> operations, List<Integer> fanouts, int regions, int keys, int valueBytes,
                            RunSettings run, List<FanoutApi> apis) implements BenchmarkOptions {

    public FanoutOptions {
        RunSettings.required(run);
        operations = List.copyOf(operations);
        apis = List.copyOf(apis);
        if (apis.isEmpty()) {
            throw new IllegalArgumentException("at least one API is needed, e.g. executor or non-blocking");
        }
        fanouts = List.copyOf(fanouts);
        if (operations.isEmpty() || operations.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("operations per transaction must be at least 1 each, got "
                    + operations);
        }
        if (fanouts.isEmpty() || fanouts.stream().anyMatch(f -> f < 1)) {
            throw new IllegalArgumentException("fan-outs must be at least 1 each, got " + fanouts);
        }
        if (regions < 1 || keys < regions || valueBytes < 1) {
            throw new IllegalArgumentException("need at least 1 region, at least as many keys as regions and"
                    + " values of at least 1 byte, got " + regions + ", " + keys + " and " + valueBytes);
        }
        int most = operations.stream().mapToInt(Integer::intValue).max().orElseThrow();
        if (most > keys) {
            throw new IllegalArgumentException("a transaction of " + most + " operations needs as many distinct"
                    + " rows, but there are only " + keys + " keys");
        }
    }

    /** The fan-outs measured for transactions of {@code n} operations: 1 first, then the others up to n. */
    List<Integer> fanoutsFor(int n) {
        return fanouts.stream().map(f -> Math.min(f, n)).distinct().sorted().toList();
    }

    /** The largest fan-out any run uses: the executor's threads. */
    int mostInFlight() {
        int most = 1;
        for (int n : operations) {
            for (int f : fanoutsFor(n)) {
                most = Math.max(most, f);
            }
        }
        return most;
    }
}
