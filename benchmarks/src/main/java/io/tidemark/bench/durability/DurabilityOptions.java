package io.tidemark.bench.durability;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;
import org.apache.hadoop.hbase.client.Durability;

import java.util.List;

/**
 * What "bench durability" runs.
 *
 * @param durabilities the data table's durability settings, one run each
 * @param threads      client threads of the single-write runs (batches run on one thread)
 * @param batchSize    mutations per {@code batch} call in the batch runs; 0 skips them
 */
public record DurabilityOptions(List<Durability> durabilities, int threads, int batchSize, TxEnvironment.DataSpec data,
                                RunSettings run) implements BenchmarkOptions {

    public DurabilityOptions {
        RunSettings.required(run);
        durabilities = List.copyOf(durabilities);
        if (durabilities.isEmpty() || durabilities.contains(Durability.USE_DEFAULT)) {
            throw new IllegalArgumentException("durabilities must name settings (SYNC_WAL, FSYNC_WAL, ASYNC_WAL,"
                    + " SKIP_WAL), got " + durabilities);
        }
        if (threads < 1 || batchSize < 0) {
            throw new IllegalArgumentException("at least 1 thread and a batch size of 0 or more, got " + threads
                    + " and " + batchSize);
        }
    }
}
