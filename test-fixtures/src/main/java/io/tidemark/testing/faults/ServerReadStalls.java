package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;

import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The in-JVM control of {@link ServerReadStaller}, which runs inside the region servers of a mini-cluster in the same
 * JVM: per table, either hold the next chosen server-side read until the test releases it (a deterministic
 * interleaving), or delay server-side reads at random (a fault that widens every window between a server's read and
 * what it does next, for the chaos checker). Tables with no plan behave normally.
 *
 * <pre>{@code
 * ServerReadStalls.attachTo(connection, table);
 * HeldRead held = ServerReadStalls.holdNext(table, ServerReadStalls.ofRow(row));
 * ... start the request in another thread; held.awaitHeld(); act; held.release(); ...
 * }</pre>
 */
public final class ServerReadStalls {

    /** Runs before the Tidemark observers' post-hooks, after the read itself. */
    static final int STALLER_PRIORITY = RegionCoprocessor.PRIORITY_USER;

    private static final Map<TableName, Plan> PLANS = new ConcurrentHashMap<>();
    private static final Map<TableName, AtomicLong> STALLED = new ConcurrentHashMap<>();

    private ServerReadStalls() {
    }

    /** Attaches {@link ServerReadStaller} to {@code table} (an online schema change) unless it is attached. */
    public static void attachTo(Connection connection, TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = admin.getDescriptor(table);
            if (current.hasCoprocessor(ServerReadStaller.class.getName())) {
                return;
            }
            admin.modifyTable(TableDescriptorBuilder.newBuilder(current)
                    .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(ServerReadStaller.class.getName())
                            .setPriority(STALLER_PRIORITY)
                            .build())
                    .build());
        }
    }

    /** Server-side reads of {@code row}. */
    public static Predicate<Get> ofRow(byte[] row) {
        return get -> Arrays.equals(get.getRow(), row);
    }

    /** Holds the next server-side read of {@code table} that {@code chosen} accepts, once, until released. */
    public static HeldRead holdNext(TableName table, Predicate<Get> chosen) {
        HeldRead held = new HeldRead();
        PLANS.put(table, new Plan(chosen, held, 0, 0, null));
        return held;
    }

    /**
     * Delays each server-side read of {@code table} with {@code probability} by up to {@code maxMillis},
     * reproducibly by seed (as far as the order of the reads is).
     */
    public static void delay(TableName table, double probability, long maxMillis, long seed) {
        if (probability < 0 || probability > 1) {
            throw new IllegalArgumentException("probability must be from 0 to 1, was " + probability);
        }
        if (maxMillis < 1) {
            throw new IllegalArgumentException("maxMillis must be positive, was " + maxMillis);
        }
        PLANS.put(table, new Plan(get -> true, null, probability, maxMillis, new Random(seed)));
    }

    /** Stops holding or delaying reads of {@code table}, releasing a held one; the counter stays. */
    public static void disarm(TableName table) {
        Plan plan = PLANS.remove(table);
        if (plan != null && plan.held != null) {
            plan.held.release();
        }
    }

    /** How many server-side reads of {@code table} were held or delayed so far. */
    public static long stalled(TableName table) {
        return STALLED.computeIfAbsent(table, t -> new AtomicLong()).get();
    }

    static void stall(TableName table, Get get) {
        Plan plan = PLANS.get(table);
        if (plan == null || !plan.chosen.test(get)) {
            return;
        }
        if (plan.held != null) {
            if (PLANS.remove(table, plan)) {
                STALLED.computeIfAbsent(table, t -> new AtomicLong()).incrementAndGet();
                plan.held.hold();
            }
            return;
        }
        long millis = plan.nextDelayMillis();
        if (millis > 0) {
            STALLED.computeIfAbsent(table, t -> new AtomicLong()).incrementAndGet();
            sleep(millis);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A read held inside the region server, after it read and before it answers. */
    public static final class HeldRead {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private HeldRead() {
        }

        /** Waits until the chosen read is held; false when none came within the time. */
        public boolean awaitHeld(long timeout, TimeUnit unit) throws InterruptedException {
            return held.await(timeout, unit);
        }

        /** Lets the held read go on (or the next chosen read pass, if none is held yet). */
        public void release() {
            released.countDown();
        }

        private void hold() {
            held.countDown();
            try {
                // Bounded, so a test that fails before releasing cannot keep a region-server handler forever.
                released.await(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class Plan {
        final Predicate<Get> chosen;
        final HeldRead held;
        final double probability;
        final long maxMillis;
        final Random random;

        Plan(Predicate<Get> chosen, HeldRead held, double probability, long maxMillis, Random random) {
            this.chosen = chosen;
            this.held = held;
            this.probability = probability;
            this.maxMillis = maxMillis;
            this.random = random;
        }

        synchronized long nextDelayMillis() {
            return random.nextDouble() < probability ? 1 + random.nextInt((int) Math.min(maxMillis, Integer.MAX_VALUE))
                    : 0;
        }
    }
}
