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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault thread of one run: from its seed, it waits a random time between half and one and a half times the mean
 * interval, injects one of the scenario's faults, and again, until stopped. A round injects each fault of the
 * scenario's list once (a fault listed twice, twice), in an order drawn from the seed; the first round waits half
 * the usual times, so that even a short run has every fault it exists for. A schedule of a fixed number of rounds
 * then stops; one without goes on picking each fault at random. Every fault and its outcome go to
 * {@code faults.log} with the time since the run started.
 */
public final class FaultSchedule implements FaultInjection {

    private final FaultTarget target;
    private final List<FaultKind> faults;
    private final long meanIntervalMillis;
    private final Random random;
    private final Path logFile;
    private final FaultAttempts attempts;
    /** Rounds it injects before it stops; 0: until stopped. */
    private final int rounds;
    private final AtomicInteger done = new AtomicInteger();
    /** When the faults started (the run's clients work from then on): the fault log's times count from here. */
    private long startNanos;
    private volatile boolean stopped;
    private Thread thread;

    /** @param rounds how many rounds it injects before it stops; 0: until stopped */
    public FaultSchedule(FaultTarget target, List<? extends FaultKind> faults, long meanIntervalMillis, long seed,
                         Path logFile, int rounds) {
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must not be negative: " + rounds);
        }
        this.rounds = rounds;
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
                    Thread.sleep(first ? wait / 2 : wait);
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
