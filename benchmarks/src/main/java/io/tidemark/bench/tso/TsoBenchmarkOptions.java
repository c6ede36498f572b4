package io.tidemark.bench.tso;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;

import java.util.List;

/**
 * Options of {@link TsoBenchmark}: {@code clients} connections, each keeping {@code window} BEGIN+COMMIT pairs
 * outstanding; every scenario warms up and measures as {@code run} says. The rate-limited
 * scenario sends {@code targetRate} pairs/s, or half the measured saturation rate when it is 0. The client sweep then
 * runs the low-latency TSO alone with each number of clients in {@code sweepClients} (none: no sweep). With
 * {@code omid}, Apache Omid's TSO in low-latency mode runs the twins of the low-latency scenarios.
 */
public record TsoBenchmarkOptions(int clients, int window, RunSettings run, long targetRate,
                                  List<Integer> sweepClients, boolean omid) implements BenchmarkOptions {

    public TsoBenchmarkOptions {
        if (clients < 1) {
            throw new IllegalArgumentException("clients must be at least 1, got " + clients);
        }
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        RunSettings.required(run);
        if (targetRate < 0) {
            throw new IllegalArgumentException("target rate must not be negative (0 = half the saturation rate), got "
                    + targetRate);
        }
        if (sweepClients == null || sweepClients.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("every client count of the sweep must be at least 1, got "
                    + sweepClients);
        }
        sweepClients = List.copyOf(sweepClients);
    }
}
