package io.tidemark.bench.progress;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A benchmark's client threads, measured as a {@link MeasuredRun}: each runs while {@link Client#running()}, records
 * what it does only while {@link Client#measuring()} (or into what a {@link MeasuredRun.Recording} resets), and counts
 * each unit of work it completes (whether measuring or not) with {@link Client#completed()}. Those on
 * {@code ClosedLoop} or a load of pairs have their own clients.
 */
public final class ClientThreads {

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean measuring = new AtomicBoolean(false);
    private final List<Thread> threads = new ArrayList<>();
    private final List<CompletedWork> clients = new ArrayList<>();

    /** What a client thread sees of the run. */
    public final class Client {

        private final AtomicLong completed = new AtomicLong();

        private Client() {
        }

        /** Whether to go on: false once the measured window is over. */
        public boolean running() {
            return running.get();
        }

        /** Whether what the client does now is measured (not in the warm-up). */
        public boolean measuring() {
            return measuring.get();
        }

        /** Counts a unit of work this client completed. */
        public void completed() {
            completed.incrementAndGet();
        }
    }

    /** Adds a client thread named {@code name} running {@code body}; it starts with {@link #measure}. */
    public void add(String name, Consumer<Client> body) {
        Client client = new Client();
        clients.add(client.completed::get);
        Thread t = new Thread(() -> body.accept(client), name);
        t.setDaemon(true);
        threads.add(t);
    }

    /**
     * Starts the threads, measures them ({@link MeasuredRun#measure}), stops them and waits for each to end, for
     * clients that record into structures of their own while {@link Client#measuring()}.
     *
     * @param firstError the first error a client met, for the failure of a run in which a client did nothing
     * @return the measured window's length in seconds, as it actually lasted
     */
    public double measure(ProgressClock clock, RunTiming timing, Supplier<?> firstError) throws InterruptedException {
        return measure(clock, timing, new MeasuredRun.Recording<Double>() {
            @Override
            public void reset(WarmUp.Outcome warmUp) {
            }

            @Override
            public Double read(double seconds) {
                return seconds;
            }

            @Override
            public String firstError() {
                Object first = firstError.get();
                return first == null ? null : first.toString();
            }
        });
    }

    /**
     * Starts the threads, measures them ({@link MeasuredRun#measure}) through {@code recording}, stops them and waits
     * for each to end.
     */
    public <M> M measure(ProgressClock clock, RunTiming timing, MeasuredRun.Recording<M> recording)
            throws InterruptedException {
        threads.forEach(Thread::start);
        try {
            return MeasuredRun.measure(clock, timing, clients, new MeasuredRun.Recording<M>() {
                @Override
                public void reset(WarmUp.Outcome warmUp) {
                    recording.reset(warmUp);
                    measuring.set(true);
                }

                @Override
                public M read(double seconds) {
                    measuring.set(false);
                    return recording.read(seconds);
                }

                @Override
                public String firstError() {
                    return recording.firstError();
                }
            });
        } finally {
            measuring.set(false);
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
