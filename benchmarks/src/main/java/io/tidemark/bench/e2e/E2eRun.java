package io.tidemark.bench.e2e;

import io.tidemark.bench.progress.ClientThreads;
import io.tidemark.bench.progress.MeasuredRun;
import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.progress.WarmUp;
import io.tidemark.bench.report.LatencySummary;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Client threads running transactions of {@code size} operations against one {@link KeyValueStore}, closed loop;
 * read-only transactions and those that write are recorded apart. Side by side, each thread runs each transaction on
 * every store in turn (starting with the next one each time), so that they all meet the same moments of load.
 */
final class E2eRun {

    private final List<KeyValueStore> stores;
    private final E2eOptions options;
    private final List<Tally> tallies = new ArrayList<>();

    E2eRun(KeyValueStore store, E2eOptions options) {
        this(List.of(store), options);
    }

    /** Side by side: {@code stores} must each keep one transaction in flight per thread. */
    E2eRun(List<KeyValueStore> stores, E2eOptions options) {
        if (stores.size() > 1 && stores.stream().anyMatch(s -> s.inFlightPerThread() > 1)) {
            throw new IllegalArgumentException("stores run side by side keep one transaction in flight per thread");
        }
        this.stores = List.copyOf(stores);
        this.options = options;
        for (int i = 0; i < stores.size(); i++) {
            tallies.add(new Tally());
        }
    }

    /** Runs the scenario's clients, measured as {@code clock} counts the benchmark's progress. */
    E2eResult run(String scenario, ProgressClock clock) throws InterruptedException {
        return runSideBySide(List.of(scenario), clock).get(0);
    }

    /** Runs the clients on every store, one result per store, named by {@code scenarios} in the stores' order. */
    List<E2eResult> runSideBySide(List<String> scenarios, ProgressClock clock) throws InterruptedException {
        if (scenarios.size() != stores.size()) {
            throw new IllegalArgumentException(scenarios.size() + " names for " + stores.size() + " stores");
        }
        ClientThreads clients = new ClientThreads();
        for (int i = 0; i < options.threads(); i++) {
            clients.add("e2e-client-" + i, this::client);
        }
        return clients.measure(clock, options.run().perRun(), new Recording(scenarios));
    }

    /** One store's latencies and outcomes, read and write transactions apart. */
    private static final class Tally {
        final Recorder readMicros = new Recorder(3);
        final Recorder writeMicros = new Recorder(3);
        final LongAdder aborts = new LongAdder();
        final LongAdder errors = new LongAdder();
        final AtomicReference<String> firstError = new AtomicReference<>();

        void failed(Throwable e) {
            errors.increment();
            firstError.compareAndSet(null, e.toString());
        }
    }

    /** Every store's latencies and outcomes. */
    private final class Recording implements MeasuredRun.Recording<List<E2eResult>> {

        private final List<String> scenarios;
        private WarmUp.Outcome warmUp;

        Recording(List<String> scenarios) {
            this.scenarios = scenarios;
        }

        @Override
        public void reset(WarmUp.Outcome warmUp) {
            this.warmUp = warmUp;
            for (Tally t : tallies) {
                t.readMicros.getIntervalHistogram();
                t.writeMicros.getIntervalHistogram();
                t.aborts.reset();
                t.errors.reset();
            }
        }

        @Override
        public List<E2eResult> read(double seconds) {
            List<E2eResult> results = new ArrayList<>();
            for (int i = 0; i < tallies.size(); i++) {
                Tally t = tallies.get(i);
                Histogram reads = t.readMicros.getIntervalHistogram();
                Histogram writes = t.writeMicros.getIntervalHistogram();
                Histogram all = reads.copy();
                all.add(writes);
                results.add(new E2eResult(scenarios.get(i), warmUp, seconds, all.getTotalCount(), t.aborts.sum(),
                        t.errors.sum(), t.firstError.get(), LatencySummary.of(all), LatencySummary.of(reads),
                        LatencySummary.of(writes)));
            }
            return results;
        }

        @Override
        public String firstError() {
            for (Tally t : tallies) {
                if (t.firstError.get() != null) {
                    return t.firstError.get();
                }
            }
            return null;
        }
    }

    private void client(ClientThreads.Client client) {
        SplittableRandom random = new SplittableRandom();
        byte[][] values = new byte[options.size()][options.valueBytes()];
        List<KeyValueStore.Session> sessions = new ArrayList<>();
        try {
            for (KeyValueStore store : stores) {
                sessions.add(store.session());
            }
            if (stores.size() == 1 && stores.get(0).inFlightPerThread() > 1) {
                issueWithoutWaiting((KeyValueStore.NonBlockingSession) sessions.get(0),
                        stores.get(0).inFlightPerThread(), random, client, tallies.get(0));
                return;
            }
            int next = 0;
            while (client.running()) {
                List<KeyValueStore.Operation> operations = nextTransaction(random, values);
                for (int k = 0; k < sessions.size() && client.running(); k++) {
                    int i = (next + k) % sessions.size();
                    runOne(sessions.get(i), operations, tallies.get(i), client);
                }
                next = (next + 1) % sessions.size();
            }
        } catch (Exception e) {
            tallies.get(0).failed(e);
        } finally {
            for (KeyValueStore.Session session : sessions) {
                try {
                    session.close();
                } catch (Exception e) {
                    tallies.get(0).failed(e);
                }
            }
        }
    }

    /** Runs one transaction on {@code session} and records it in {@code tally}. */
    private static void runOne(KeyValueStore.Session session, List<KeyValueStore.Operation> operations, Tally tally,
                               ClientThreads.Client client) {
        boolean readOnly = operations.stream().allMatch(KeyValueStore.Operation::isRead);
        try {
            session.beforeTransaction();
            long started = System.nanoTime();
            boolean committed = session.run(operations);
            long micros = Math.max(1, (System.nanoTime() - started) / 1000);
            if (!committed) {
                tally.aborts.increment();
            } else if (readOnly) {
                tally.readMicros.recordValue(micros);
            } else {
                tally.writeMicros.recordValue(micros);
            }
            if (committed) {
                client.completed();
            }
        } catch (Exception e) {
            tally.failed(e);
        }
    }

    /**
     * Keeps up to {@code window} transactions of this thread in flight: issues one whenever one ends, records each as
     * it ends, and waits for the last ones before returning.
     */
    private void issueWithoutWaiting(KeyValueStore.NonBlockingSession session, int window, SplittableRandom random,
                                     ClientThreads.Client client, Tally tally) throws InterruptedException {
        byte[][] values = new byte[options.size()][options.valueBytes()];
        Semaphore slots = new Semaphore(window);
        while (client.running()) {
            slots.acquire();
            List<KeyValueStore.Operation> operations = nextTransaction(random, values);
            boolean readOnly = operations.stream().allMatch(KeyValueStore.Operation::isRead);
            long started = System.nanoTime();
            session.runAsync(operations).whenComplete((committed, failure) -> {
                long micros = Math.max(1, (System.nanoTime() - started) / 1000);
                if (failure != null) {
                    tally.failed(failure);
                } else if (!committed) {
                    tally.aborts.increment();
                } else {
                    (readOnly ? tally.readMicros : tally.writeMicros).recordValue(micros);
                }
                if (failure == null && committed) {
                    client.completed();
                }
                slots.release();
            });
        }
        slots.acquire(window);
    }

    /**
     * {@code size} operations on uniform keys (or adjacent ones from a uniform first), each a read or, with the
     * options' probability, a write of fresh random bytes (read first, with the options' read-modify-writes).
     */
    private List<KeyValueStore.Operation> nextTransaction(SplittableRandom random, byte[][] values) {
        List<KeyValueStore.Operation> operations = new ArrayList<>(options.size());
        int first = options.adjacentKeys() ? random.nextInt(options.rows() - options.size() + 1) : 0;
        for (int i = 0; i < options.size(); i++) {
            int key = options.adjacentKeys() ? first + i : random.nextInt(options.rows());
            if (random.nextDouble() >= options.writeFraction()) {
                operations.add(new KeyValueStore.Operation(key, null));
            } else {
                random.nextBytes(values[i]);
                if (options.readModifyWrite()) {
                    operations.add(new KeyValueStore.Operation(key, null));
                }
                operations.add(new KeyValueStore.Operation(key, values[i]));
            }
        }
        return operations;
    }
}
