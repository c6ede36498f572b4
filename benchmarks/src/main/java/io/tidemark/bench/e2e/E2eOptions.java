package io.tidemark.bench.e2e;

import io.tidemark.bench.RunSettings;
import io.tidemark.client.PostCommitMode;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of {@link EndToEndBenchmark}: {@code threads} clients run single-key transactions, half reads and half
 * writes of {@code valueBytes}-byte values, on keys drawn uniformly from {@code rows} preloaded rows; the Tidemark
 * clients' post-commit is {@code postCommit}.
 */
public record E2eOptions(int threads, int rows, int valueBytes, PostCommitMode postCommit, Duration warmup,
                         Duration duration, Path outputFolder) {

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
        if (postCommit == null) {
            throw new IllegalArgumentException("post-commit mode is required (sync or async)");
        }
        RunSettings.check(warmup, duration, outputFolder);
    }
}
