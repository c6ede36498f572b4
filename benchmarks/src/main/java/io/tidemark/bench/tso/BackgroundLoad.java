package io.tidemark.bench.tso;

import io.tidemark.bench.progress.CompletedWork;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.Connection;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Control traffic for the TSO with no data behind it, as the paper's custom load generator sends to emulate a large
 * cluster: BEGIN + COMMIT pairs (write sets of two random cell ids) over their own TSO connections, replies collected
 * asynchronously. Either open loop at a target rate, or saturating (a window of pairs outstanding per connection).
 * With a batched TSO the TSO writes a commit record for each commit. With a low-latency TSO the pairs write their own
 * commit records through a group commit of their own, as the clients of other application processes would, or (the
 * TSO-only variant) none at all.
 */
public final class BackgroundLoad implements AutoCloseable {

    /** How long {@link #close()} waits for outstanding pairs. */
    private static final long DRAIN_MILLIS = 10_000;

    private final List<TsoClient> clients;
    /** The client-side commit records, or null when the pairs write none. */
    private final ClientCommitRecords records;
    private final List<PairLoad> loads = new ArrayList<>();
    private final PairLoad.Stats stats = new PairLoad.Stats();
    private Thread pacer;

    /** @param records the pairs' commit records, or null for none */
    private BackgroundLoad(TidemarkConfig clientConfig, int connections, ClientCommitRecords records) {
        if (connections < 1) {
            throw new IllegalArgumentException("the background load needs at least 1 connection, got " + connections);
        }
        this.records = records;
        clients = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                TsoClient client = NettyTsoClient.create(clientConfig, clientConfig.hadoopConfiguration());
                clients.add(client);
                loads.add(new PairLoad(client, records != null ? records : CommitRecordSink.NONE, stats));
            }
        } catch (RuntimeException e) {
            clients.forEach(TsoClient::close);
            if (records != null) {
                records.close();
            }
            throw e;
        }
    }

    /**
     * Open loop: all connections together send {@code pairsPerSecond} pairs a second.
     *
     * @param clientWritesRecords whether each pair writes its commit record through {@code connection} (for a
     *                            low-latency TSO; a batched TSO writes them itself)
     */
    public static BackgroundLoad atRate(TidemarkConfig clientConfig, Connection connection,
                                        boolean clientWritesRecords, int connections, long pairsPerSecond) {
        BackgroundLoad load = new BackgroundLoad(clientConfig, connections,
                records(connection, clientConfig, clientWritesRecords));
        load.pacer = OpenLoopPacer.start(load.loads, pairsPerSecond, "background-load-pacer");
        return load;
    }

    /**
     * As fast as the TSO answers: each connection keeps {@code window} pairs outstanding.
     *
     * @param clientWritesRecords as for {@link #atRate}
     */
    public static BackgroundLoad saturating(TidemarkConfig clientConfig, Connection connection,
                                            boolean clientWritesRecords, int connections, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        BackgroundLoad load = new BackgroundLoad(clientConfig, connections,
                records(connection, clientConfig, clientWritesRecords));
        load.loads.forEach(l -> l.startWindow(window));
        return load;
    }

    private static ClientCommitRecords records(Connection connection, TidemarkConfig clientConfig, boolean write) {
        return write ? new ClientCommitRecords(connection, clientConfig) : null;
    }

    /** Its connections, each counting the pairs it committed, for a {@code MeasuredRun}. */
    public List<CompletedWork> clients() {
        return List.copyOf(loads);
    }

    /** Forgets what was counted so far (the warm-up). */
    public void reset() {
        stats.reset();
    }

    /** What completed since {@link #reset()}, over the {@code seconds} since then. */
    public Measurement snapshot(double seconds) {
        var commit = stats.commitSinceReset();
        stats.beginSinceReset();
        return new Measurement(seconds, commit.getTotalCount(), stats.aborts.sum(), stats.errors.sum(),
                stats.firstError, LatencySummary.of(commit));
    }

    /** The first error a pair met, or null. */
    public String firstError() {
        return stats.firstError;
    }

    /** Stops sending, waits a bounded time for the replies outstanding, and closes the connections. */
    @Override
    public void close() throws InterruptedException {
        loads.forEach(PairLoad::stop);
        try {
            if (pacer != null) {
                pacer.join();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            while (loads.stream().anyMatch(l -> l.inFlight() > 0) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            clients.forEach(TsoClient::close);
            if (records != null) {
                records.close();
            }
        }
    }

    /** Pairs the background load completed in an interval; {@code commit} is the COMMIT reply latency. */
    public record Measurement(double seconds, long committedPairs, long aborts, long errors, String firstError,
                              LatencySummary commit) {

        /** Pairs answered per second, committed or aborted. */
        public double pairsPerSecond() {
            return seconds == 0 ? 0 : (committedPairs + aborts) / seconds;
        }
    }
}
