package io.tidemark.bench.e2e;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.client.PostCommitMode;


/**
 * Options of {@link EndToEndBenchmark}: {@code threads} clients run transactions of {@code size} operations, each a
 * read or, with probability {@code writeFraction}, a write of a {@code valueBytes}-byte value, on keys drawn uniformly
 * from {@code rows} preloaded rows of tables split into {@code regions} regions (with {@code adjacentKeys}, a
 * transaction's keys are consecutive from a uniform first one, so that they fall in one region but where they cross a
 * boundary); the clients' post-commit (Tidemark's, and Omid's when {@code omid}
 * adds Apache Omid's low-latency mode to the scenarios) is {@code postCommit}. The second scenario of the non-blocking
 * API keeps {@code nonBlockingInFlight} transactions in flight per client thread (1 leaves it out). With
 * {@code sideBySide}, only the scenarios that commit in one request run (raw HBase, the fast path, single-region
 * commit, lazy begin), all at once, each client thread running each transaction on every one in turn. With
 * {@code readModifyWrite}, each write reads its key first in the same transaction.
 */
public record E2eOptions(int threads, int rows, int valueBytes, int size, int regions, PostCommitMode postCommit,
                         boolean omid, RunSettings run, int nonBlockingInFlight, double writeFraction,
                         boolean adjacentKeys, boolean sideBySide, boolean readModifyWrite)
        implements BenchmarkOptions {

    /** Half the operations write, unless told otherwise. */
    public static final double DEFAULT_WRITE_FRACTION = 0.5;

    /** Transactions per client thread in flight in the second non-blocking scenario, unless told otherwise. */
    public static final int DEFAULT_NON_BLOCKING_IN_FLIGHT = 16;

    public E2eOptions {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1, got " + rows);
        }
        if (valueBytes < 0) {
            throw new IllegalArgumentException("value size must not be negative, got " + valueBytes);
        }
        if (size < 1) {
            throw new IllegalArgumentException("a transaction needs at least 1 operation, got " + size);
        }
        if (regions < 1 || regions > rows) {
            throw new IllegalArgumentException("regions must be between 1 and the number of rows (" + rows
                    + "), got " + regions);
        }
        if (postCommit == null) {
            throw new IllegalArgumentException("post-commit mode is required (sync or async)");
        }
        if (nonBlockingInFlight < 1) {
            throw new IllegalArgumentException("transactions in flight per thread must be at least 1, got "
                    + nonBlockingInFlight);
        }
        if (!(writeFraction >= 0 && writeFraction <= 1)) {
            throw new IllegalArgumentException("the fraction of writes must be from 0 to 1, got " + writeFraction);
        }
        if (adjacentKeys && size > rows) {
            throw new IllegalArgumentException("adjacent keys need at least as many rows (" + rows + ") as operations"
                    + " per transaction (" + size + ")");
        }
        if (sideBySide && omid) {
            throw new IllegalArgumentException("Apache Omid does not run side by side: its scenario is one of the"
                    + " others");
        }
        RunSettings.required(run);
    }

    /** The default workload: half the operations write, each to a key of its own, drawn uniformly. */
    public E2eOptions(int threads, int rows, int valueBytes, int size, int regions, PostCommitMode postCommit,
                      boolean omid, RunSettings run, int nonBlockingInFlight) {
        this(threads, rows, valueBytes, size, regions, postCommit, omid, run,
                nonBlockingInFlight, DEFAULT_WRITE_FRACTION, false, false, false);
    }
}
