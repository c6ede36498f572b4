package io.tidemark.chaos.fault;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Faults injected by lanes running side by side (partitions, pauses, kills), each lane one fault at a time. A lane
 * goes through its faults in rounds, every fault once per round (of a fault with variants, such as the lengths of a
 * partition, the next variant each round), in an order drawn from the seed anew for each round, with a pause between
 * two faults: so even a short run injects every fault, and a long one each variant many times. The
 * schedule (order, pauses and each fault's own seed, which picks its target) follows from the seed alone and is
 * printed before the run ({@link #plan}); when each fault happened, and what it did, goes to the fault log.
 */
public final class FaultLanes implements FaultInjection {

    /** Rounds drawn in advance; a run that gets through them all starts over. */
    private static final int ROUNDS = 100;
    /** Rounds the printed plan shows of each lane. */
    private static final int PRINTED_ROUNDS = 2;

    /**
     * One lane: its faults, and the pause between two of them.
     *
     * @param name how the plan and the fault log name it
     * @param rounds how many rounds it injects before it stops; 0: until the run ends
     */
    public record Lane(String name, List<FaultKind> faults, long minGapMillis, long maxGapMillis, int rounds) {

        public Lane {
            faults = List.copyOf(faults);
            if (minGapMillis < 0 || maxGapMillis < minGapMillis) {
                throw new IllegalArgumentException("lane " + name + ": bad pause " + minGapMillis + ".."
                        + maxGapMillis);
            }
            if (rounds < 0) {
                throw new IllegalArgumentException("lane " + name + ": rounds must not be negative: " + rounds);
            }
        }

        /** A lane that injects until the run ends. */
        public Lane(String name, List<FaultKind> faults, long minGapMillis, long maxGapMillis) {
            this(name, faults, minGapMillis, maxGapMillis, 0);
        }
    }

    /** One planned fault: what, its own seed, and the pause before it. */
    record Planned(FaultKind kind, long seed, long gapMillis) {
    }

    private final FaultTarget target;
    private final List<Lane> lanes;
    private final List<List<Planned>> plans = new ArrayList<>();
    private final Path logFile;
    private final FaultAttempts attempts;
    private final List<Thread> threads = new ArrayList<>();
    /** Faults each lane has injected so far, by lane. */
    private final AtomicIntegerArray done;
    private BufferedWriter log;
    private long startNanos;
    private volatile boolean stopped;

    public FaultLanes(FaultTarget target, List<Lane> lanes, long seed, Path logFile) {
        this.target = target;
        this.attempts = new FaultAttempts(target);
        this.lanes = List.copyOf(lanes);
        this.logFile = logFile;
        for (int i = 0; i < lanes.size(); i++) {
            plans.add(draw(lanes.get(i), seed, i));
        }
        this.done = new AtomicIntegerArray(lanes.size());
    }

    /** The schedule the lanes follow with {@code seed}, as printed before a run: the first rounds of each lane. */
    public static String plan(List<Lane> lanes, long seed) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            List<Planned> planned = draw(lane, seed, i);
            int perRound = families(lane).size();
            s.append(String.format(Locale.ROOT, "  lane %s (%d faults a round, %s, %d to %d ms between two):%n",
                    lane.name(), perRound, lane.rounds() == 0 ? "rounds until the run ends" : lane.rounds()
                            + " round(s)", lane.minGapMillis(), lane.maxGapMillis()));
            int shown = Math.min(planned.size(), PRINTED_ROUNDS * perRound);
            for (int j = 0; j < shown; j++) {
                Planned p = planned.get(j);
                s.append(String.format(Locale.ROOT, "    %3d. after %5d ms: %s (seed %d)%n", j + 1, p.gapMillis(),
                        p.kind().description(), p.seed()));
            }
            if (planned.size() > shown) {
                s.append("    ... and so on, a new order every round\n");
            }
        }
        return s.toString();
    }

    /** The faults lane number {@code index} injects with {@code seed}, in order. */
    static List<Planned> draw(Lane lane, long seed, int index) {
        Random random = new Random(seed ^ (0x9E3779B97F4A7C15L * (index + 1)) ^ lane.name().hashCode());
        List<List<FaultKind>> families = families(lane);
        List<Integer> firstVariant = new ArrayList<>();
        for (List<FaultKind> family : families) {
            firstVariant.add(random.nextInt(family.size()));
        }
        List<Planned> planned = new ArrayList<>();
        int rounds = lane.rounds() == 0 ? ROUNDS : lane.rounds();
        for (int round = 0; round < rounds && !families.isEmpty(); round++) {
            List<FaultKind> order = new ArrayList<>();
            for (int f = 0; f < families.size(); f++) {
                List<FaultKind> variants = families.get(f);
                order.add(variants.get((firstVariant.get(f) + round) % variants.size()));
            }
            Collections.shuffle(order, random);
            for (FaultKind kind : order) {
                long gap = lane.minGapMillis() + (long) (random.nextDouble()
                        * (lane.maxGapMillis() - lane.minGapMillis()));
                planned.add(new Planned(kind, random.nextLong(), gap));
            }
        }
        return planned;
    }

    /** The lane's faults grouped by {@link FaultKind#family()}, in the order they first appear. */
    private static List<List<FaultKind>> families(Lane lane) {
        Map<String, List<FaultKind>> byFamily = new LinkedHashMap<>();
        for (FaultKind f : lane.faults()) {
            byFamily.computeIfAbsent(f.family(), k -> new ArrayList<>()).add(f);
        }
        return new ArrayList<>(byFamily.values());
    }

    /** Prepares every fault of every lane (e.g. attaches injectors); call before the clients start. */
    @Override
    public void prepare() throws IOException {
        for (Lane lane : lanes) {
            for (FaultKind f : new LinkedHashSet<>(lane.faults())) {
                f.prepare(target);
            }
        }
    }

    @Override
    public synchronized void start() throws IOException {
        log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8);
        startNanos = System.nanoTime();
        for (int i = 0; i < lanes.size(); i++) {
            int lane = i;
            Thread t = new Thread(() -> run(lane), "chaos-faults-" + lanes.get(i).name());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** How many faults were injected (attempts that did nothing or failed included). */
    @Override
    public int injected() {
        return attempts.injected();
    }

    /** How many faults of each kind were injected, by {@link FaultKind#description()}. */
    @Override
    public Map<String, Integer> byKind() {
        return attempts.byKind();
    }

    /**
     * Of each lane of a fixed number of rounds not through them yet, how far it is; of each other lane, the faults
     * (by family) it has not injected yet.
     */
    @Override
    public List<String> notYetInjected() {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < lanes.size(); i++) {
            Lane lane = lanes.get(i);
            if (lane.rounds() > 0) {
                if (done.get(i) < plans.get(i).size()) {
                    missing.add(String.format(Locale.ROOT, "lane %s (%d of its %d faults injected)", lane.name(),
                            done.get(i), plans.get(i).size()));
                }
                continue;
            }
            for (List<FaultKind> family : families(lane)) {
                if (!attempts.injected(family.get(0).family())) {
                    missing.add(family.get(0).family());
                }
            }
        }
        return missing;
    }

    @Override
    public boolean holdsEnd() {
        for (int i = 0; i < lanes.size(); i++) {
            if (lanes.get(i).rounds() > 0 && done.get(i) < plans.get(i).size()) {
                return true;
            }
        }
        return false;
    }

    /** Stops the lanes; a fault in progress finishes (and heals what it broke) first. */
    @Override
    public void close() throws InterruptedException, IOException {
        stopped = true;
        for (Thread t : threads) {
            t.join(300_000);
        }
        synchronized (this) {
            if (log != null) {
                log.close();
                log = null;
            }
        }
    }

    private void run(int index) {
        Lane lane = lanes.get(index);
        List<Planned> planned = plans.get(index);
        for (int i = 0; !stopped && i < planned.size(); i = lane.rounds() == 0 ? (i + 1) % planned.size() : i + 1) {
            Planned p = planned.get(i);
            if (!sleep(p.gapMillis())) {
                return;
            }
            double startedAt = (System.nanoTime() - startNanos) / 1e9;
            String outcome = attempts.inject(p.kind(), new Random(p.seed()));
            write(String.format(Locale.ROOT, "%8.1f s to %6.1f s  [%s] %s: %s%n", startedAt,
                    (System.nanoTime() - startNanos) / 1e9, lane.name(), p.kind().description(), outcome));
            done.incrementAndGet(index);
        }
    }

    /** Sleeps {@code millis} unless stopped meanwhile; false when stopped. */
    private boolean sleep(long millis) {
        long end = System.currentTimeMillis() + millis;
        while (!stopped && System.currentTimeMillis() < end) {
            try {
                Thread.sleep(Math.min(100, Math.max(1, end - System.currentTimeMillis())));
            } catch (InterruptedException e) {
                return false;
            }
        }
        return !stopped;
    }

    private synchronized void write(String line) {
        try {
            if (log != null) {
                log.write(line);
                log.flush();
            }
        } catch (IOException e) {
            System.err.println("chaos: cannot write " + logFile + ": " + e);
        }
    }
}
