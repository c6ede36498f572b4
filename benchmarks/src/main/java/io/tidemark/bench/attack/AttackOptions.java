package io.tidemark.bench.attack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Shape of an attack run: the TSO process's heap and {@code tidemark.tso.*} settings, how long each attack lasts, how
 * large the attacks are, the p99 bound the normal client must stay under (besides the bounds of issue 33, which need
 * no option), and where results go.
 */
public record AttackOptions(String tsoHeap, Map<String, String> settings, Duration attackLength,
                            int idleConnections, int slowloris, int partialFrames, Duration unreadLength,
                            double p99BoundMs, Path output) {

    public AttackOptions {
        if (tsoHeap == null || !tsoHeap.matches("[0-9]+[kKmMgG]?")) {
            throw new IllegalArgumentException("the TSO's heap must be a size like 1g or 512m, got " + tsoHeap);
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
        settings = Map.copyOf(settings);
    }

    /** The TSO's maximum heap in bytes. */
    long tsoHeapBytes() {
        char unit = Character.toLowerCase(tsoHeap.charAt(tsoHeap.length() - 1));
        int shift = unit == 'k' ? 10 : unit == 'm' ? 20 : unit == 'g' ? 30 : 0;
        String digits = shift == 0 ? tsoHeap : tsoHeap.substring(0, tsoHeap.length() - 1);
        return Long.parseLong(digits) << shift;
    }
}
