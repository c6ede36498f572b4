package io.tidemark.bench.tso;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.client.tso.TsoClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One scenario: the clients send pairs for the warm-up, the counters are reset, then they send for the measured
 * duration. Saturating runs keep a window of pairs outstanding per client; rate-limited runs send on a fixed
 * schedule (open loop), so a slow reply does not hold back the next request.
 */
final class TsoRun {

    /** How long to wait for outstanding pairs once the clients stop. */
    private static final long DRAIN_MILLIS = 10_000;
    /** A rate-limited client skips pairs while this many are outstanding (the TSO cannot keep up). */
    private static final long MAX_OUTSTANDING_PER_CLIENT = 10_000;
    /** How often the pacer of a rate-limited run wakes up to send the pairs that are due. */
    private static final long PACE_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final List<TsoClient> clients;
    private final CommitRecordSink sink;
    private final Duration warmup;
    private final Duration duration;

    TsoRun(List<TsoClient> clients, CommitRecordSink sink, Duration warmup, Duration duration) {
        this.clients = clients;
        this.sink = sink;
        this.warmup = warmup;
        this.duration = duration;
    }

    /** Each client keeps {@code window} pairs outstanding. */
    TsoRunResult saturate(String scenario, String commitMode, int window) throws InterruptedException {
        PairLoad.Stats stats = new PairLoad.Stats();
        List<PairLoad> loads = loads(stats);
        loads.forEach(l -> l.startWindow(window));
        return measure(scenario, commitMode, 0, stats, loads, () -> { });
    }

    /** All clients together send {@code pairsPerSecond} pairs a second, round robin. */
    TsoRunResult atRate(String scenario, String commitMode, long pairsPerSecond) throws InterruptedException {
        if (pairsPerSecond < 1) {
            throw new IllegalArgumentException("target rate must be at least 1 pair/s, got " + pairsPerSecond);
        }
        PairLoad.Stats stats = new PairLoad.Stats();
        List<PairLoad> loads = loads(stats);
        Thread pacer = new Thread(() -> pace(loads, pairsPerSecond), "tso-bench-pacer");
        pacer.setDaemon(true);
        pacer.start();
        return measure(scenario, commitMode, pairsPerSecond, stats, loads, () -> {
            try {
                pacer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * One thread sends every pair that is due by now, then sleeps a tick. A single pacer waking every tick costs far
     * less CPU than a thread per client waking per pair, which would itself limit the rate it tries to measure.
     */
    private static void pace(List<PairLoad> loads, long pairsPerSecond) {
        long started = System.nanoTime();
        long sent = 0;
        int next = 0;
        while (loads.get(0).isRunning()) {
            long due = (System.nanoTime() - started) * pairsPerSecond / TimeUnit.SECONDS.toNanos(1);
            for (; sent < due; sent++) {
                PairLoad load = loads.get(next);
                next = (next + 1) % loads.size();
                if (load.inFlight() < MAX_OUTSTANDING_PER_CLIENT) {
                    load.sendOne();
                }
            }
            LockSupport.parkNanos(PACE_TICK_NANOS);
        }
    }

    private List<PairLoad> loads(PairLoad.Stats stats) {
        List<PairLoad> loads = new ArrayList<>();
        for (TsoClient c : clients) {
            loads.add(new PairLoad(c, sink, stats));
        }
        return loads;
    }

    private TsoRunResult measure(String scenario, String commitMode, long targetRate, PairLoad.Stats stats,
                                 List<PairLoad> loads, Runnable afterStop) throws InterruptedException {
        Thread.sleep(warmup.toMillis());
        stats.reset();
        long started = System.nanoTime();
        Thread.sleep(duration.toMillis());
        var begin = stats.beginSinceReset();
        var commit = stats.commitSinceReset();
        double seconds = (System.nanoTime() - started) / 1e9;
        long aborts = stats.aborts.sum();
        long errors = stats.errors.sum();
        loads.forEach(PairLoad::stop);
        afterStop.run();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
        while (loads.stream().anyMatch(l -> l.inFlight() > 0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return new TsoRunResult(scenario, commitMode, clients.size(), targetRate, seconds,
                commit.getTotalCount(), aborts, errors, stats.firstError, LatencySummary.of(begin),
                LatencySummary.of(commit));
    }
}
