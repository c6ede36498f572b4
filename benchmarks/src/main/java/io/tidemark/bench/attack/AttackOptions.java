package io.tidemark.bench.attack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Shape of an attack run: how the TSO process is started (a command running {@link StandaloneTso}, settings as
 * {@code key=value} arguments), how long each attack lasts, how large each attack is, the p99 bound the normal client
 * must stay under, and where results go.
 */
public record AttackOptions(List<String> tsoCommand, Duration attackLength, int idleConnections, int slowloris,
                            int partialFrames, Duration unreadLength, double p99BoundMs, Path output) {

    public AttackOptions {
        if (tsoCommand == null || tsoCommand.isEmpty()) {
            throw new IllegalArgumentException("the command that starts the TSO process is required");
        }
        if (attackLength.isNegative() || attackLength.isZero() || unreadLength.isNegative()
                || unreadLength.isZero()) {
            throw new IllegalArgumentException("attacks must last a positive time");
        }
        if (idleConnections < 1 || slowloris < 1 || partialFrames < 1) {
            throw new IllegalArgumentException("every attack needs at least one connection");
        }
        if (p99BoundMs <= 0) {
            throw new IllegalArgumentException("the p99 bound must be positive, got " + p99BoundMs);
        }
        tsoCommand = List.copyOf(tsoCommand);
    }
}
