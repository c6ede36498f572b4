package io.tidemark.chaos.fault;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The fault thread of one run: from its seed, it waits a random time between half and one and a half times the mean
 * interval (half that before the first fault), injects one of the scenario's faults, and again, until stopped. Every fault and its outcome go to {@code faults.log} with the
 * time since the run started.
 */
public final class FaultSchedule implements FaultInjection {

    private final FaultTarget target;
    private final List<FaultKind> faults;
    private final long meanIntervalMillis;
    private final Random random;
    private final Path logFile;
    private final FaultAttempts attempts;
    /** When the faults started (the run's clients work from then on): the fault log's times count from here. */
    private long startNanos;
    private volatile boolean stopped;
    private Thread thread;

    public FaultSchedule(FaultTarget target, List<? extends FaultKind> faults, long meanIntervalMillis, long seed,
                         Path logFile) {
        this.target = target;
        this.attempts = new FaultAttempts(target);
        this.faults = List.copyOf(faults);
        this.meanIntervalMillis = meanIntervalMillis;
        this.random = new Random(seed);
        this.logFile = logFile;
    }

    /** Prepares every fault of the schedule (e.g. attaches injectors); call before the clients start. */
    @Override
    public void prepare() throws java.io.IOException {
        for (FaultKind f : new java.util.LinkedHashSet<>(faults)) {
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
        try (BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8)) {
            boolean first = true;
            while (!stopped) {
                try {
                    // The first fault comes after half the usual wait, so that even a short run sees one.
                    long wait = meanIntervalMillis / 2 + (long) (random.nextDouble() * meanIntervalMillis);
                    Thread.sleep(first ? wait / 2 : wait);
                    first = false;
                } catch (InterruptedException e) {
                    return;
                }
                if (stopped) {
                    return;
                }
                FaultKind fault = faults.get(random.nextInt(faults.size()));
                String outcome = attempts.inject(fault, random);
                log.write(String.format(Locale.ROOT, "%8.1f s  %s: %s%n",
                        (System.nanoTime() - startNanos) / 1e9, fault.description(), outcome));
                log.flush();
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
        } catch (IOException e) {
            System.err.println("chaos: cannot write " + logFile + ": " + e);
        }
    }
}
