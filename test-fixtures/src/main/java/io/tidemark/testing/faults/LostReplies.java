package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;

import java.io.IOException;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-JVM control of {@link LostReplyInjector}: which tables lose replies, how many, and how many were lost. The
 * injector runs inside the region servers of a mini-cluster in the same JVM, so a static registry is all the wiring
 * needed. Disarmed tables behave normally.
 *
 * <pre>{@code
 * LostReplies.attachTo(connection, commitTable);       // once per table: attaches the injector
 * LostReplies.armNext(commitTable, 1);                // the next applied mutation's reply is lost
 * ... run the operation; HBase's client re-sends it ...
 * assertEquals(1, LostReplies.lost(commitTable));
 * LostReplies.disarm(commitTable);
 * }</pre>
 */
public final class LostReplies {

    /** Runs after every other observer, so the mutation has been applied by all of them. */
    static final int INJECTOR_PRIORITY = RegionCoprocessor.PRIORITY_LOWEST;

    private static final Map<TableName, Plan> PLANS = new ConcurrentHashMap<>();
    private static final Map<TableName, Counters> COUNTERS = new ConcurrentHashMap<>();

    private LostReplies() {
    }

    /** Attaches {@link LostReplyInjector} to {@code table} (an online schema change) unless it is attached. */
    public static void attachTo(Connection connection, TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = admin.getDescriptor(table);
            if (current.hasCoprocessor(LostReplyInjector.class.getName())) {
                return;
            }
            admin.modifyTable(TableDescriptorBuilder.newBuilder(current)
                    .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(LostReplyInjector.class.getName())
                            .setPriority(INJECTOR_PRIORITY)
                            .build())
                    .build());
        }
    }

    /** Loses the reply of each applied mutation of {@code table} with {@code probability}, reproducibly by seed. */
    public static void arm(TableName table, double probability, long seed) {
        if (probability < 0 || probability > 1) {
            throw new IllegalArgumentException("probability must be from 0 to 1, was " + probability);
        }
        PLANS.put(table, new Plan(probability, new Random(seed), -1));
    }

    /** Loses the replies of the next {@code count} applied mutations of {@code table}, then behaves normally. */
    public static void armNext(TableName table, int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        PLANS.put(table, new Plan(0, null, count));
    }

    /** Stops losing replies of {@code table}; the counters stay. */
    public static void disarm(TableName table) {
        PLANS.remove(table);
    }

    /** How many replies of {@code table} were lost so far. */
    public static long lost(TableName table) {
        return counters(table).lost;
    }

    /** How many applied mutations (batches) of {@code table} the injector saw while armed or not. */
    public static long seen(TableName table) {
        return counters(table).seen;
    }

    /** Sets both counters of {@code table} back to 0. */
    public static void resetCounters(TableName table) {
        COUNTERS.remove(table);
    }

    /** Called by the injector for every applied mutation batch: whether to lose its reply. */
    static boolean loseReply(TableName table) {
        Counters counters = COUNTERS.computeIfAbsent(table, t -> new Counters());
        boolean lose;
        synchronized (counters) {
            counters.seen++;
            Plan plan = PLANS.get(table);
            lose = plan != null && plan.takeLoss();
            if (lose) {
                counters.lost++;
            }
        }
        return lose;
    }

    private static Counters counters(TableName table) {
        Counters counters = COUNTERS.computeIfAbsent(table, t -> new Counters());
        synchronized (counters) {
            return counters.copy();
        }
    }

    private static final class Counters {
        long seen;
        long lost;

        Counters copy() {
            Counters c = new Counters();
            c.seen = seen;
            c.lost = lost;
            return c;
        }
    }

    /** Either a probability with its random source, or a count of next replies to lose. */
    private static final class Plan {
        private final double probability;
        private final Random random;
        private int remaining;

        Plan(double probability, Random random, int remaining) {
            this.probability = probability;
            this.random = random;
            this.remaining = remaining;
        }

        synchronized boolean takeLoss() {
            if (random != null) {
                return random.nextDouble() < probability;
            }
            if (remaining > 0) {
                remaining--;
                return true;
            }
            return false;
        }
    }
}
