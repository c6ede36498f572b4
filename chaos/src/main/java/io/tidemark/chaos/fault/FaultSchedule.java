package io.tidemark.chaos.fault;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * The fault thread of one run: from its seed, it waits a random time between half and one and a half times the mean
 * interval, injects one of the scenario's faults, and again, until stopped. A round injects each fault of the
 * scenario's list once (a fault listed twice, twice), in an order drawn from the seed; the first round waits half
 * the usual times, so that even a short run has every fault it exists for, or, when asked to, only until the clients
 * committed a number of transactions since the fault before (the system works again; a run that ends once it did
 * what it is for need not wait longer). A schedule of a fixed number of rounds then stops; one without goes on
 * picking each fault at random. Every fault and its outcome go to {@code faults.log} with the time since the run
 * started.
 */
public final class FaultSchedule implements FaultInjection {

    /** How often the first round looks whether the clients committed enough since the fault before. */
    private static final long COMMIT_POLL_MILLIS = 50;

    private final FaultTarget target;
    private final List<FaultKind> faults;
    private final long meanIntervalMillis;
    private final Random random;
    private final Path logFile;
    private final FaultAttempts attempts;
    /** Rounds it injects before it stops; 0: until stopped. */
    private final int rounds;
    /** How many transactions the run's clients committed so far, all kinds together. */
    private final IntSupplier committed;
    /** Commits since the fault before after which the first round goes on; 0: it waits half the usual time. */
    private final int commitsBetweenFirstFaults;
    private final AtomicInteger done = new AtomicInteger();
    /** When the faults started (the run's clients work from then on): the fault log's times count from here. */
    private long startNanos;
    private volatile boolean stopped;
    private Thread thread;

    /**
     * @param rounds how many rounds it injects before it stops; 0: until stopped
     * @param committed how many transactions the run's clients committed so far
     * @param commitsBetweenFirstFaults in the first round, the next fault comes once this many transactions committed
     *        since the fault before, or after half the usual time when that is sooner; 0: after half the usual time
     */
    public FaultSchedule(FaultTarget target, List<? extends FaultKind> faults, long meanIntervalMillis, long seed,
                         Path logFile, int rounds, IntSupplier committed, int commitsBetweenFirstFaults) {
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must not be negative: " + rounds);
        }
        if (commitsBetweenFirstFaults < 0) {
            throw new IllegalArgumentException("commits between faults must not be negative: "
                    + commitsBetweenFirstFaults);
        }
        this.rounds = rounds;
        this.committed = committed;
        this.commitsBetweenFirstFaults = commitsBetweenFirstFaults;
        this.target = target;
        this.attempts = new FaultAttempts(target);
        this.faults = List.copyOf(faults);
        this.meanIntervalMillis = meanIntervalMillis;
        this.random = new Random(seed);
        this.logFile = logFile;
    }

    /** Prepares every fault of the schedule (e.g. attaches injectors); call before the clients start. */
    @Override
    public void prepare() throws IOException {
        for (FaultKind f : new LinkedHashSet<>(faults)) {
            f.prepare(target);
        }
    }

    @Override
    public void start() {
        startNanos = System.nanoTime();
        thread = new Thread(this::run, "chaos-faults");
        thread.setDaemon(true);
        thread.start();
    }

    /** How many faults were injected (attempts that did nothing included). */
    @Override
    public int injected() {
        return attempts.injected();
    }

    @Override
    public Map<String, Integer> byKind() {
        return attempts.byKind();
    }

    /** Every kind of the scenario not injected yet. */
    @Override
    public List<String> notYetInjected() {
        List<String> missing = new ArrayList<>();
        for (FaultKind f : new LinkedHashSet<>(faults)) {
            if (!attempts.injected(f.family())) {
                missing.add(f.description());
            }
        }
        return missing;
    }

    /** Whether a schedule of a fixed number of rounds is not through them. */
    @Override
    public boolean holdsEnd() {
        return done.get() < rounds * faults.size();
    }

    /** Stops injecting and waits for the fault in progress (a region-server replacement can take a while). */
    @Override
    public void close() throws InterruptedException {
        stopped = true;
        if (thread != null) {
            thread.interrupt();
            thread.join(180_000);
        }
    }

    /**
     * The pause before a fault of the first round: until {@link #commitsBetweenFirstFaults} transactions committed
     * since it began (never, when that is 0), at most {@code maxMillis}.
     */
    private void awaitCommits(long maxMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        int before = commitsBetweenFirstFaults > 0 ? committed.getAsInt() : 0;
        while (true) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || commitsBetweenFirstFaults > 0
                    && committed.getAsInt() - before >= commitsBetweenFirstFaults) {
                return;
            }
            Thread.sleep(Math.min(left, COMMIT_POLL_MILLIS));
        }
    }

    private void run() {
        if (faults.isEmpty()) {
            return;
        }
        List<FaultKind> planned = new ArrayList<>();
        for (int round = 0; round < Math.max(1, rounds); round++) {
            List<FaultKind> order = new ArrayList<>(faults);
            Collections.shuffle(order, random);
            planned.addAll(order);
        }
        try (BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            for (int n = 0; !stopped && (rounds == 0 || n < planned.size()); n++) {
                boolean first = n < faults.size();
                try {
                    long wait = meanIntervalMillis / 2 + (long) (random.nextDouble() * meanIntervalMillis);
                    if (first) {
                        awaitCommits(wait / 2);
                    } else {
                        Thread.sleep(wait);
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (stopped) {
                    return;
                }
                FaultKind fault = n < planned.size() ? planned.get(n) : faults.get(random.nextInt(faults.size()));
                String outcome = attempts.inject(fault, random);
                log.write(String.format(Locale.ROOT, "%8.1f s  %s: %s%n",
                        (System.nanoTime() - startNanos) / 1e9, fault.description(), outcome));
                log.flush();
                done.incrementAndGet();
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        } catch (IOException e) {
            System.err.println("chaos: cannot write " + logFile + ": " + e);
        }
    }
}
