package io.tidemark.bench.tso;

import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.client.tso.TsoClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One scenario: the clients send pairs for the warm-up, the counters are reset, then they send for the measured
 * duration. Saturating runs keep a window of pairs outstanding per client; rate-limited runs send on a fixed
 * schedule (open loop), so a slow reply does not hold back the next request.
 */
final class TsoRun {

    /** How long to wait for outstanding pairs once the clients stop. */
    private static final long DRAIN_MILLIS = 10_000;

    private final List<TsoClient> clients;
    private final CommitRecordSink sink;
    private final Duration warmup;
    private final Duration duration;
    private final ProgressClock clock;

    TsoRun(List<TsoClient> clients, CommitRecordSink sink, Duration warmup, Duration duration, ProgressClock clock) {
        this.clients = clients;
        this.clock = clock;
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
        PairLoad.Stats stats = new PairLoad.Stats();
        List<PairLoad> loads = loads(stats);
        Thread pacer = OpenLoopPacer.start(loads, pairsPerSecond, "tso-bench-pacer");
        return measure(scenario, commitMode, pairsPerSecond, stats, loads, () -> {
            try {
                pacer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
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
        clock.warmUp(warmup);
        stats.reset();
        long started = System.nanoTime();
        clock.sleep(duration);
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
