package io.tidemark.bench.txn;

import io.tidemark.bench.progress.ProgressClock;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Client threads running benchmark transactions back to back (closed loop), in groups: each group has a label, a
 * number of threads and a {@link TransactionShape}, and its own statistics. Start, let it warm up, {@link #reset()},
 * measure, {@link #snapshot()}, then {@link #close()}.
 */
public final class ClosedLoop implements AutoCloseable {

    /** One group of identical client threads. */
    public record Group(String label, int threads, TransactionShape shape) {

        public Group {
            if (threads < 1) {
                throw new IllegalArgumentException("a group needs at least 1 thread, got " + threads);
            }
        }
    }

    private static final long AFTER_ERROR_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final TxDriver driver;
    private final int valueBytes;
    private final Map<String, TxStats> stats = new LinkedHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);

    private ClosedLoop(TxDriver driver, int valueBytes) {
        this.driver = driver;
        this.valueBytes = valueBytes;
    }

    /** Starts every group's threads on {@code driver}; updates write values of {@code valueBytes} random bytes. */
    public static ClosedLoop start(TxDriver driver, int valueBytes, List<Group> groups) {
        ClosedLoop loop = new ClosedLoop(driver, valueBytes);
        for (Group g : groups) {
            TxStats groupStats = new TxStats();
            if (loop.stats.put(g.label(), groupStats) != null) {
                throw new IllegalArgumentException("two groups are labelled " + g.label());
            }
            for (int i = 0; i < g.threads(); i++) {
                Thread t = new Thread(() -> loop.client(g.shape(), groupStats), "bench-" + g.label() + "-" + i);
                t.setDaemon(true);
                loop.threads.add(t);
            }
        }
        loop.threads.forEach(Thread::start);
        return loop;
    }

    /**
     * Runs the groups for {@code warmup}, then measures them for {@code duration}, and stops them: the usual use.
     */
    public static List<TxMeasurement> measure(TxDriver driver, int valueBytes, List<Group> groups,
                                              ProgressClock clock, Duration warmup, Duration duration)
            throws InterruptedException {
        ClosedLoop loop = start(driver, valueBytes, groups);
        try {
            clock.warmUp(warmup);
            loop.reset();
            clock.sleep(duration);
            return loop.snapshot();
        } finally {
            loop.close();
        }
    }

    /** Forgets what was recorded so far (the warm-up). */
    public void reset() {
        stats.values().forEach(TxStats::reset);
    }

    /** Each group's measurements since {@link #reset()}, in group order. */
    public List<TxMeasurement> snapshot() {
        List<TxMeasurement> result = new ArrayList<>();
        stats.forEach((label, s) -> result.add(s.snapshot(label)));
        return result;
    }

    /** Stops the threads after their current transaction. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join();
        }
    }

    private void client(TransactionShape shape, TxStats groupStats) {
        SplittableRandom random = new SplittableRandom();
        byte[] value = new byte[valueBytes];
        try (TxDriver.Session session = driver.session()) {
            while (running.get()) {
                random.nextBytes(value);
                try {
                    groupStats.record(session.run(shape.next(random), value));
                } catch (IOException | RuntimeException e) {
                    groupStats.recordError(e);
                    // A dead TSO or region server must not turn the client into a busy loop.
                    LockSupport.parkNanos(AFTER_ERROR_NANOS);
                }
            }
        } catch (IOException | RuntimeException e) {
            groupStats.recordError(e);
        }
    }
}
