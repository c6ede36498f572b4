package io.tidemark.bench.tso;

import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.progress.RunTiming;
import io.tidemark.client.tso.TsoClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One scenario of Tidemark's TSO, measured as every scenario is ({@link Measurement}). Saturating runs keep a window
 * of pairs outstanding per client; rate-limited runs send on a fixed schedule (open loop), so a slow reply does not
 * hold back the next request.
 */
final class TsoRun {

    private final List<TsoClient> clients;
    private final CommitRecordSink sink;
    private final Measurement measurement;

    TsoRun(List<TsoClient> clients, CommitRecordSink sink, RunTiming timing, ProgressClock clock) {
        this.clients = clients;
        this.sink = sink;
        this.measurement = new Measurement(timing, clock);
    }

    /** Each client keeps {@code window} pairs outstanding. */
    TsoRunResult saturate(String scenario, String commitMode, int window) throws InterruptedException {
        prime();
        PairLoad.Stats stats = new PairLoad.Stats();
        List<PairLoad> loads = loads(stats);
        loads.forEach(l -> l.startWindow(window));
        return measurement.measure(scenario, commitMode, 0, stats, loads, () -> { });
    }

    /** All clients together send {@code pairsPerSecond} pairs a second, round robin. */
    TsoRunResult atRate(String scenario, String commitMode, long pairsPerSecond) throws InterruptedException {
        prime();
        PairLoad.Stats stats = new PairLoad.Stats();
        List<PairLoad> loads = loads(stats);
        Thread pacer = OpenLoopPacer.start(loads, pairsPerSecond, "tso-bench-pacer");
        return measurement.measure(scenario, commitMode, pairsPerSecond, stats, loads, () -> {
            try {
                pacer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * One pair through the sink, waited for and not counted: the first commit record opens the group commit's HBase
     * connection and checks the commit table's layout, which took the whole of a short measured window on a loaded
     * machine (no pair completed in it). Its outcome is not counted, failed or not; the run's own pairs are.
     */
    private void prime() throws InterruptedException {
        PairLoad first = new PairLoad(clients.get(0), sink, new PairLoad.Stats());
        first.sendOne();
        while (first.inFlight() > 0) {
            TimeUnit.MILLISECONDS.sleep(1);
        }
    }

    private List<PairLoad> loads(PairLoad.Stats stats) {
        List<PairLoad> loads = new ArrayList<>();
        for (TsoClient c : clients) {
            loads.add(new PairLoad(c, sink, stats));
        }
        return loads;
    }
}
