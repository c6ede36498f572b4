package io.tidemark.bench.attack;

import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.config.HostAndPort;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A well-behaved client that keeps committing while the attacks run: one thread, BEGIN then COMMIT of two random
 * cells, in a closed loop, with the production TSO client and its default settings. Latency is recorded per
 * BEGIN+COMMIT pair, in windows that the benchmark opens and closes around each attack.
 */
public final class NormalClient implements AutoCloseable {

    private static final long[] TABLES = {1};
    private static final long PAUSE_AFTER_ERROR_MS = 100;

    private final NettyTsoClient client;
    private final Recorder latencyMicros = new Recorder(3);
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    public NormalClient(InetSocketAddress tso) {
        client = NettyTsoClient.builder().address(new HostAndPort(tso.getHostString(), tso.getPort())).build();
        thread = new Thread(this::loop, "normal-client");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running) {
            long started = System.nanoTime();
            try {
                BeginResult begun = client.begin().get();
                ThreadLocalRandom random = ThreadLocalRandom.current();
                CommitResult result = client.commit(begun.startTimestamp(), begun.commitToken(),
                        new long[] {random.nextLong(), random.nextLong()}, TABLES).get();
                latencyMicros.recordValue(Math.max(1, (System.nanoTime() - started) / 1000));
                if (result.isCommitted()) {
                    commits.incrementAndGet();
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                errors.incrementAndGet();
                firstError.compareAndSet(null, String.valueOf(e.getCause() != null ? e.getCause() : e));
                try {
                    TimeUnit.MILLISECONDS.sleep(PAUSE_AFTER_ERROR_MS);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Waits until the client committed at least once (so its connection is up). */
    public void awaitFirstCommit(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (commits.get() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the normal client did not commit within " + timeout
                        + (firstError.get() != null ? ": " + firstError.get() : ""));
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }

    /** Starts a new measurement window, forgetting what was recorded before. */
    public void startWindow() {
        latencyMicros.getIntervalHistogram();
        commits.set(0);
        errors.set(0);
        firstError.set(null);
    }

    /** What happened since {@link #startWindow()}. */
    public Window endWindow(Duration length) {
        Histogram h = latencyMicros.getIntervalHistogram();
        return new Window(commits.get(), errors.get(), firstError.get(), length,
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
    }

    /** A measurement window of the normal client. */
    public record Window(long commits, long errors, String firstError, Duration length, double p50Ms, double p99Ms,
                         double maxMs) {
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        client.close();
    }
}
