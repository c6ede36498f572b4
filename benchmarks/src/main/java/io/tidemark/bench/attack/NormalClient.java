package io.tidemark.bench.attack;

import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClientTls;
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
 * A well-behaved client that keeps committing while the attacks run, with the production TSO client and its default
 * settings, from 127.0.0.1. Two threads: one commits BEGIN then COMMIT of two random cells of table {@value #TABLE}
 * in a closed loop, its latency recorded per pair; the other keeps transactions open for {@value #OPEN_MS} ms between
 * BEGIN and COMMIT, as an application that reads before it writes, the transactions a pushed low watermark or a fence
 * aborts. Random 64-bit cells never conflict, so every abort is one the attack caused. Counted in windows that the
 * benchmark opens and closes around each attack.
 */
public final class NormalClient implements AutoCloseable {

    /** The table every transaction writes, which the fence attack aims at. */
    public static final long TABLE = 1;
    static final long OPEN_MS = 20;

    private static final long[] TABLES = {TABLE};
    private static final long PAUSE_AFTER_ERROR_MS = 100;

    private final NettyTsoClient client;
    private final Recorder latencyMicros = new Recorder(3);
    private final AtomicLong commits = new AtomicLong();
    private final AtomicLong aborts = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicReference<String> firstError = new AtomicReference<>();
    private final AtomicReference<String> firstAbort = new AtomicReference<>();
    private final Thread quick;
    private final Thread open;
    private volatile boolean running = true;

    /** @param tls the client's TLS towards the TSO, or null for plaintext */
    public NormalClient(InetSocketAddress tso, TsoClientTls tls) {
        NettyTsoClient.Builder builder = NettyTsoClient.builder()
                .address(new HostAndPort(tso.getHostString(), tso.getPort()));
        if (tls != null) {
            builder.tls(tls);
        }
        client = builder.build();
        quick = start("normal-client", 0);
        open = start("normal-client-open-transactions", OPEN_MS);
    }

    private Thread start(String name, long openMs) {
        Thread thread = new Thread(() -> loop(openMs), name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private void loop(long openMs) {
        while (running) {
            long started = System.nanoTime();
            try {
                BeginResult begun = client.begin().get();
                if (openMs > 0) {
                    TimeUnit.MILLISECONDS.sleep(openMs);
                }
                ThreadLocalRandom random = ThreadLocalRandom.current();
                CommitResult result = client.commit(begun.startTimestamp(), begun.commitToken(),
                        new long[] {random.nextLong(), random.nextLong()}, TABLES).get();
                if (openMs == 0) {
                    latencyMicros.recordValue(Math.max(1, (System.nanoTime() - started) / 1000));
                }
                if (result.isCommitted()) {
                    commits.incrementAndGet();
                } else {
                    aborts.incrementAndGet();
                    firstAbort.compareAndSet(null, String.valueOf(result.abortReason()));
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
        aborts.set(0);
        errors.set(0);
        firstError.set(null);
        firstAbort.set(null);
    }

    /** What happened since {@link #startWindow()}. */
    public Window endWindow(Duration length) {
        Histogram h = latencyMicros.getIntervalHistogram();
        return new Window(commits.get(), aborts.get(), firstAbort.get(), errors.get(), firstError.get(), length,
                h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0);
    }

    /** A measurement window of the normal client; latencies of the quick pairs only. */
    public record Window(long commits, long aborts, String firstAbort, long errors, String firstError,
                         Duration length, double p50Ms, double p99Ms, double maxMs) {

        /** Aborted transactions per transaction finished, 0 to 1. */
        public double abortRate() {
            long finished = commits + aborts;
            return finished == 0 ? 0 : (double) aborts / finished;
        }
    }

    @Override
    public void close() {
        running = false;
        for (Thread thread : new Thread[] {quick, open}) {
            thread.interrupt();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        client.close();
    }
}
