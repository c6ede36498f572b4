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
 * read-only transactions and those that write are recorded apart.
 */
final class E2eRun {

    private final KeyValueStore store;
    private final E2eOptions options;
    private final Recorder readMicros = new Recorder(3);
    private final Recorder writeMicros = new Recorder(3);
    private final LongAdder aborts = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    E2eRun(KeyValueStore store, E2eOptions options) {
        this.store = store;
        this.options = options;
    }

    /** Runs the scenario's clients, measured as {@code clock} counts the benchmark's progress. */
    E2eResult run(String scenario, ProgressClock clock) throws InterruptedException {
        ClientThreads clients = new ClientThreads();
        for (int i = 0; i < options.threads(); i++) {
            clients.add("e2e-client-" + i, this::client);
        }
        return clients.measure(clock, options.run().perRun(), new Recording(scenario));
    }

    /** The scenario's latencies and outcomes, read and write transactions apart. */
    private final class Recording implements MeasuredRun.Recording<E2eResult> {

        private final String scenario;
        private WarmUp.Outcome warmUp;

        Recording(String scenario) {
            this.scenario = scenario;
        }

        @Override
        public void reset(WarmUp.Outcome warmUp) {
            this.warmUp = warmUp;
            readMicros.getIntervalHistogram();
            writeMicros.getIntervalHistogram();
            aborts.reset();
            errors.reset();
        }

        @Override
        public E2eResult read(double seconds) {
            Histogram reads = readMicros.getIntervalHistogram();
            Histogram writes = writeMicros.getIntervalHistogram();
            Histogram all = reads.copy();
            all.add(writes);
            return new E2eResult(scenario, warmUp, seconds, all.getTotalCount(), aborts.sum(), errors.sum(),
                    firstError.get(), LatencySummary.of(all), LatencySummary.of(reads), LatencySummary.of(writes));
        }

        @Override
        public String firstError() {
            return firstError.get();
        }
    }

    private void client(ClientThreads.Client client) {
        SplittableRandom random = new SplittableRandom();
        byte[][] values = new byte[options.size()][options.valueBytes()];
        try (KeyValueStore.Session session = store.session()) {
            if (store.inFlightPerThread() > 1) {
                issueWithoutWaiting((KeyValueStore.NonBlockingSession) session, store.inFlightPerThread(), random,
                        client);
                return;
            }
            while (client.running()) {
                List<KeyValueStore.Operation> operations = nextTransaction(random, values);
                boolean readOnly = operations.stream().allMatch(KeyValueStore.Operation::isRead);
                try {
                    session.beforeTransaction();
                    long started = System.nanoTime();
                    boolean committed = session.run(operations);
                    long micros = Math.max(1, (System.nanoTime() - started) / 1000);
                    if (!committed) {
                        aborts.increment();
                    } else if (readOnly) {
                        readMicros.recordValue(micros);
                    } else {
                        writeMicros.recordValue(micros);
                    }
                    if (committed) {
                        client.completed();
                    }
                } catch (Exception e) {
                    errors.increment();
                    firstError.compareAndSet(null, e.toString());
                }
            }
        } catch (Exception e) {
            errors.increment();
            firstError.compareAndSet(null, e.toString());
        }
    }

    /**
     * Keeps up to {@code window} transactions of this thread in flight: issues one whenever one ends, records each as
     * it ends, and waits for the last ones before returning.
     */
    private void issueWithoutWaiting(KeyValueStore.NonBlockingSession session, int window, SplittableRandom random,
                                     ClientThreads.Client client) throws InterruptedException {
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
                    errors.increment();
                    firstError.compareAndSet(null, failure.toString());
                } else if (!committed) {
                    aborts.increment();
                } else {
                    (readOnly ? readMicros : writeMicros).recordValue(micros);
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
     * options' probability, a write of fresh random bytes.
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
                operations.add(new KeyValueStore.Operation(key, values[i]));
            }
        }
        return operations;
    }
}
