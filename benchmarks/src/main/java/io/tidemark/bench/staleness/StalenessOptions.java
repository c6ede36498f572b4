package io.tidemark.bench.staleness;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;

import java.time.Duration;
import java.util.List;

/**
 * What "bench staleness" runs.
 *
 * @param keysPerTransaction rows each read-only transaction reads, one run per entry
 * @param bounds             staleness bounds to compare with a transaction begun at the TSO, one run per entry
 * @param readers            reading threads (one TransactionManager between them)
 * @param writers            threads committing single-row updates meanwhile (their own TransactionManager)
 * @param keyTheta           Zipf skew of the rows read and written, 0 for uniform
 */
public record StalenessOptions(List<Integer> keysPerTransaction, List<Duration> bounds, int readers, int writers,
                               TxEnvironment.DataSpec data, double keyTheta, RunSettings run)
        implements BenchmarkOptions {

    public StalenessOptions {
        RunSettings.required(run);
        keysPerTransaction = List.copyOf(keysPerTransaction);
        bounds = List.copyOf(bounds);
        if (keysPerTransaction.isEmpty() || keysPerTransaction.stream().anyMatch(k -> k < 1)) {
            throw new IllegalArgumentException("keys per transaction must be at least 1 each, got "
                    + keysPerTransaction);
        }
        if (bounds.stream().anyMatch(b -> b.isNegative() || b.isZero())) {
            throw new IllegalArgumentException("staleness bounds must be positive (a transaction begun at the TSO"
                    + " is always measured), got " + bounds);
        }
        if (readers < 1 || writers < 0) {
            throw new IllegalArgumentException("at least 1 reader and 0 or more writers, got " + readers + " and "
                    + writers);
        }
    }
}
