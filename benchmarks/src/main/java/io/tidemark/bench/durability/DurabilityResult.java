package io.tidemark.bench.durability;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.txn.TxMode;
import org.apache.hadoop.hbase.client.Durability;

/**
 * One run: {@code calls} single writes or batches of {@code mutationsPerCall} in {@code seconds}, in {@code mode}
 * with the data table at {@code durability}.
 */
public record DurabilityResult(Durability durability, TxMode mode, int mutationsPerCall, long calls, long aborts,
                               long errors, double seconds, LatencySummary latency, String firstError) {

    public double callsPerSecond() {
        return seconds == 0 ? 0 : calls / seconds;
    }
}
