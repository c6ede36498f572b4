package io.tidemark.bench.tso;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.config.TidemarkConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Control traffic for the TSO with no data behind it, as the paper's custom load generator sends to emulate a large
 * cluster: BEGIN + COMMIT pairs (write sets of two random cell ids) over their own TSO connections, replies collected
 * asynchronously. Either open loop at a target rate, or saturating (a window of pairs outstanding per connection).
 * The pairs write no commit records of their own: with a batched TSO the TSO writes one for each commit, with a
 * low-latency TSO none is written (the client would, and these clients have no data to protect).
 */
public final class BackgroundLoad implements AutoCloseable {

    /** How long {@link #close()} waits for outstanding pairs. */
    private static final long DRAIN_MILLIS = 10_000;

    private final List<TsoClient> clients;
    private final List<PairLoad> loads = new ArrayList<>();
    private final PairLoad.Stats stats = new PairLoad.Stats();
    private Thread pacer;
    private volatile long resetAt = System.nanoTime();

    private BackgroundLoad(TidemarkConfig clientConfig, int connections) {
        if (connections < 1) {
            throw new IllegalArgumentException("the background load needs at least 1 connection, got " + connections);
        }
        clients = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                TsoClient client = NettyTsoClient.create(clientConfig, clientConfig.hadoopConfiguration());
                clients.add(client);
                loads.add(new PairLoad(client, CommitRecordSink.NONE, stats));
            }
        } catch (RuntimeException e) {
            clients.forEach(TsoClient::close);
            throw e;
        }
    }

    /** Open loop: all connections together send {@code pairsPerSecond} pairs a second. */
    public static BackgroundLoad atRate(TidemarkConfig clientConfig, int connections, long pairsPerSecond) {
        BackgroundLoad load = new BackgroundLoad(clientConfig, connections);
        load.pacer = OpenLoopPacer.start(load.loads, pairsPerSecond, "background-load-pacer");
        return load;
    }

    /** As fast as the TSO answers: each connection keeps {@code window} pairs outstanding. */
    public static BackgroundLoad saturating(TidemarkConfig clientConfig, int connections, int window) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        BackgroundLoad load = new BackgroundLoad(clientConfig, connections);
        load.loads.forEach(l -> l.startWindow(window));
        return load;
    }

    /** Forgets what was counted so far (the warm-up). */
    public void reset() {
        stats.reset();
        resetAt = System.nanoTime();
    }

    /** What completed since {@link #reset()}. */
    public Measurement snapshot() {
        double seconds = (System.nanoTime() - resetAt) / 1e9;
        var commit = stats.commitSinceReset();
        stats.beginSinceReset();
        return new Measurement(seconds, commit.getTotalCount(), stats.aborts.sum(), stats.errors.sum(),
                stats.firstError, LatencySummary.of(commit));
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
