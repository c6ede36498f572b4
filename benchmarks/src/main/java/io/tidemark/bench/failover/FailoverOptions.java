package io.tidemark.bench.failover;

import io.tidemark.embedded.EmbeddedStorage;
import io.tidemark.protocol.CommitMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Shape of a failover run: how many times the active TSO is killed, how each TSO process is launched (the command
 * up to, not including, {@code --hbase-site <file>}), the commit mode, the bank's size, how long the workload runs
 * between kills, where logs go, and where the embedded HBase keeps its root directory and WAL.
 */
public record FailoverOptions(int kills, List<String> tsoCommand, CommitMode commitMode, int accounts, int threads,
                              Duration between, Path workDirectory, EmbeddedStorage storage) {

    public FailoverOptions {
        if (kills < 1) {
            throw new IllegalArgumentException("kills must be at least 1, got " + kills);
        }
        if (tsoCommand == null || tsoCommand.isEmpty()) {
            throw new IllegalArgumentException("the command that starts a TSO process is required");
        }
        if (accounts < 2 || threads < 1) {
            throw new IllegalArgumentException("the bank needs at least 2 accounts and 1 thread");
        }
        if (between == null || between.isNegative()) {
            throw new IllegalArgumentException("the time between kills must not be negative");
        }
        if (storage == null) {
            throw new IllegalArgumentException("the storage is required");
        }
        tsoCommand = List.copyOf(tsoCommand);
    }
}
