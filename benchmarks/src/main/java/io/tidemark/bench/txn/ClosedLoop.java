package io.tidemark.bench.txn;

import io.tidemark.bench.progress.CompletedWork;
import io.tidemark.bench.progress.MeasuredRun;
import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.progress.RunTiming;
import io.tidemark.bench.progress.WarmUp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Client threads running benchmark transactions back to back (closed loop), in groups: each group has a label, a
 * number of threads and a {@link TransactionShape}, and its own statistics. Start, then measure it through
 * {@link MeasuredRun} (each thread is a client, a committed transaction its unit of work), then
 * {@link #close()}.
 */
public final class ClosedLoop implements AutoCloseable, MeasuredRun.Recording<List<TxMeasurement>> {

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
    private final List<CompletedWork> clients = new ArrayList<>();
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
                AtomicLong completed = new AtomicLong();
                loop.clients.add(completed::get);
                Thread t = new Thread(() -> loop.client(g.shape(), groupStats, completed),
                        "bench-" + g.label() + "-" + i);
                t.setDaemon(true);
                loop.threads.add(t);
            }
        }
        loop.threads.forEach(Thread::start);
        return loop;
    }

    /**
     * Runs the groups, warmed up and measured as {@code timing} says ({@link MeasuredRun}: and until each thread
     * finished a transaction), and stops them: the usual use.
     */
    public static List<TxMeasurement> measure(TxDriver driver, int valueBytes, List<Group> groups,
                                              ProgressClock clock, RunTiming timing) throws InterruptedException {
        ClosedLoop loop = start(driver, valueBytes, groups);
        try {
            return MeasuredRun.measure(clock, timing, loop.clients(), loop);
        } finally {
            loop.close();
        }
    }

    /** Its client threads, each counting the transactions it committed. */
    public List<CompletedWork> clients() {
        return List.copyOf(clients);
    }

    @Override
    public void reset(WarmUp.Outcome warmUp) {
        stats.values().forEach(TxStats::reset);
    }

    /** Each group's measurements since {@link #reset()}, in group order. */
    @Override
    public List<TxMeasurement> read(double seconds) {
        List<TxMeasurement> result = new ArrayList<>();
        stats.forEach((label, s) -> result.add(s.snapshot(label, seconds)));
        return result;
    }

    @Override
    public String firstError() {
        return stats.values().stream().map(TxStats::firstError).filter(e -> e != null).findFirst().orElse(null);
    }

    /** Stops the threads after their current transaction. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join();
        }
    }

    private void client(TransactionShape shape, TxStats groupStats, AtomicLong completed) {
        SplittableRandom random = new SplittableRandom();
        byte[] value = new byte[valueBytes];
        try (TxDriver.Session session = driver.session()) {
            while (running.get()) {
                random.nextBytes(value);
                try {
                    TxOutcome outcome = session.run(shape.next(random), value);
                    groupStats.record(outcome);
                    if (outcome.committed()) {
                        completed.incrementAndGet();
                    }
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
