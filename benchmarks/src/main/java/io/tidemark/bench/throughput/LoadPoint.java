package io.tidemark.bench.throughput;

import io.tidemark.bench.tso.BackgroundLoad;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;

import java.util.List;

/**
 * One load step of one mode: the background load asked for ({@code load} names it; {@code targetRate} is 0 for none
 * and for saturation), what it achieved, and the foreground transactions measured meanwhile, one per size.
 */
public record LoadPoint(TxMode mode, String load, long targetRate, BackgroundLoad.Measurement background,
                        List<TxMeasurement> foreground) {

    /**
     * Total TSO throughput in BEGIN/COMMIT pairs a second: the background pairs plus the foreground transactions
     * (one pair each).
     */
    public double tsoPairsPerSecond() {
        double foregroundRate = foreground.stream().mapToDouble(m -> (m.commits() + m.aborts()) / m.seconds()).sum();
        return (background == null ? 0 : background.pairsPerSecond()) + foregroundRate;
    }
}
