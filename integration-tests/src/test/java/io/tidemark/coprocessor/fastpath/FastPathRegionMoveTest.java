package io.tidemark.coprocessor.fastpath;

import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.DuplicateDelivery;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.JVMClusterUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fast-path increments keep running while their region moves between two region servers, or while its region server
 * crashes: the region's clock is lost every time, yet no committed increment is lost and no row gets a version below
 * one already returned.
 */
@ExtendWith(SharedTestClusters.class)
// Alone: it adds and aborts region servers, on which other classes' regions could land.
@Isolated
class FastPathRegionMoveTest {

    private static final byte[] Q = Bytes.toBytes("n");
    private static final int ROWS = 3;
    private static final int MOVES = 4;

    private static TestCluster env;
    private static TableName table;
    /**
     * A second region server for the tests that move regions, started once for them: starting and stopping a region
     * server of the mini-cluster takes seconds. The crash test starts (and aborts) one of its own.
     */
    private static ServerName second;

    @BeforeAll
    static void start(TestCluster shared) throws Exception {
        env = shared;
        table = env.createTable("counters", EnumSet.of(TableFeature.FAST_PATH));
        second = startRegionServer().getRegionServer().getServerName();
    }

    @AfterAll
    static void stopSecondRegionServer() throws IOException {
        if (second != null) {
            MiniHBaseCluster cluster = SharedMiniCluster.utility().getMiniHBaseCluster();
            cluster.stopRegionServer(second);
            cluster.waitForRegionServerToStop(second, 60_000);
        }
    }

    @Test
    void regionMovesLoseNoCommittedWriteAndNeverMintBelowAnEarlierVersion() throws Exception {
        ServerName first = otherThan(second);
        try (Admin admin = TestCluster.connection().getAdmin()) {
            move(admin, admin.getRegions(table).get(0), first);
        }
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(ROWS);
        List<Future<long[]>> counters = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            byte[] row = row(i);
            counters.add(pool.submit(() -> incrementUntilStopped(row, running)));
        }
        try (Admin admin = TestCluster.connection().getAdmin()) {
            RegionInfo region = admin.getRegions(table).get(0);
            for (int m = 0; m < MOVES; m++) {
                Thread.sleep(300);
                ServerName target = m % 2 == 0 ? second : first;
                move(admin, region, target);
            }
            Thread.sleep(300);
            running.set(false);
            long[] totalIncrements = new long[ROWS];
            for (int i = 0; i < ROWS; i++) {
                long[] result = counters.get(i).get(60, TimeUnit.SECONDS);
                totalIncrements[i] = result[0];
            }
            pool.shutdown();
            try (FastPathTable fp = env.fastPath(table)) {
                for (int i = 0; i < ROWS; i++) {
                    VersionedResult r = fp.get(new Get(row(i)));
                    assertEquals(totalIncrements[i], Bytes.toLong(r.result().getValue(F, Q)),
                            "every committed increment survived the moves");
                    assertTrue(totalIncrements[i] > MOVES, "increments ran during the moves: " + totalIncrements[i]);
                }
            }
            move(admin, region, first);
        } finally {
            running.set(false);
        }
    }

    @Test
    void aRegionServerCrashLosesNoAcknowledgedWriteAndNeverMintsBelowAnEarlierVersion() throws Exception {
        TableName crashTable = env.createTable("crash", EnumSet.of(TableFeature.FAST_PATH));
        MiniHBaseCluster cluster = SharedMiniCluster.utility().getMiniHBaseCluster();
        JVMClusterUtil.RegionServerThread extra = startRegionServer();
        ServerName victim = extra.getRegionServer().getServerName();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(ROWS);
        List<Future<long[]>> counters = new ArrayList<>();
        try (Admin admin = TestCluster.connection().getAdmin()) {
            RegionInfo region = admin.getRegions(crashTable).get(0);
            move(admin, crashTable, region, victim);
            for (int i = 0; i < ROWS; i++) {
                byte[] row = row(i);
                counters.add(pool.submit(() -> incrementsSurvivingCrashes(crashTable, row, running)));
            }
            Thread.sleep(500);
            extra.getRegionServer().abort("fast-path crash test");
            cluster.waitForRegionServerToStop(victim, 60_000);
            awaitMovedAway(crashTable, victim);
            Thread.sleep(500);
            running.set(false);
            try (FastPathTable fp = env.fastPath(crashTable)) {
                for (int i = 0; i < ROWS; i++) {
                    long[] last = counters.get(i).get(120, TimeUnit.SECONDS);
                    VersionedResult r = fp.get(new Get(row(i)));
                    assertEquals(last[0], Bytes.toLong(r.result().getValue(F, Q)),
                            "the last acknowledged increment survived the crash");
                    assertTrue(r.version() >= last[1], "the row version never went back");
                }
            }
        } finally {
            running.set(false);
            pool.shutdown();
        }
    }

    @Test
    void aReSentIncrementArrivingAtTheRegionsNewLocationReturnsTheFirstResult() throws Exception {
        TableName moved = env.createTable("resent", EnumSet.of(TableFeature.FAST_PATH));
        try (Admin admin = TestCluster.connection().getAdmin()) {
            move(admin, moved, admin.getRegions(moved).get(0), otherThan(second));
        }
        ServerName target = second;
        // The first attempt is applied where the region is; before HBase re-sends it, the region moves.
        DuplicateDelivery movedMeanwhile = new DuplicateDelivery(FastPathRetryTest::isFastPathWrite, op -> {
            try (Admin admin = TestCluster.connection().getAdmin()) {
                move(admin, moved, admin.getRegions(moved).get(0), target);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (Connection duplicating = movedMeanwhile.wrap(TestCluster.connection());
             FastPathTable fp = env.fastPath(moved, duplicating);
             FastPathTable reader = env.fastPath(moved)) {
            assertEquals(1, fp.increment(row(0), F, Q, 1), "the re-send, served at the new location, answers the"
                    + " first attempt's result");
            assertEquals(1, movedMeanwhile.duplicates());
            assertEquals(1, Bytes.toLong(reader.get(new Get(row(0))).result().getValue(F, Q)),
                    "the increment was applied once: its record moved with the row");
        }
    }

    /**
     * One writer per row, across a crash: values and versions only grow, and the last acknowledged value is the
     * row's value. An increment whose reply was lost in the crash is re-sent by HBase to the region's new server and
     * answered from its operation record there, so each increment adds exactly one.
     */
    private static long[] incrementsSurvivingCrashes(TableName crashTable, byte[] row, AtomicBoolean running)
            throws Exception {
        long lastValue = 0;
        long lastVersion = 0;
        try (FastPathTable fp = env.fastPath(crashTable)) {
            while (running.get()) {
                long value = fp.increment(row, F, Q, 1);
                assertEquals(lastValue + 1, value, "each increment adds one, also across the crash");
                long version = fp.sessionTimestamp();
                assertTrue(version > lastVersion, "version " + version + " minted after " + lastVersion);
                lastValue = value;
                lastVersion = version;
            }
        }
        return new long[] {lastValue, lastVersion};
    }

    /** One writer per row: each increment must return the previous value plus one and a larger version. */
    private static long[] incrementUntilStopped(byte[] row, AtomicBoolean running) throws Exception {
        long count = 0;
        long lastVersion = 0;
        try (FastPathTable fp = env.fastPath(table)) {
            while (running.get()) {
                long value = fp.increment(row, F, Q, 1);
                count++;
                assertEquals(count, value, "the counter continues from its last committed value");
                long version = fp.get(new Get(row)).version();
                assertTrue(version > lastVersion, "version " + version + " minted after " + lastVersion);
                lastVersion = version;
            }
        }
        return new long[] {count, lastVersion};
    }

    /** Moves the region; the master may still place it elsewhere right after a server joined, so it re-asks. */
    private static void move(Admin admin, RegionInfo region, ServerName target) throws Exception {
        move(admin, table, region, target);
    }

    private static void move(Admin admin, TableName of, RegionInfo region, ServerName target) throws Exception {
        for (int attempt = 0; attempt < 3; attempt++) {
            admin.move(region.getEncodedNameAsBytes(), target);
            if (awaitLocation(of, target)) {
                return;
            }
        }
        throw new AssertionError("the region did not move to " + target);
    }

    private static boolean awaitLocation(TableName of, ServerName target) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (RegionLocator locator = TestCluster.connection().getRegionLocator(of)) {
            while (!target.equals(locator.getRegionLocation(row(0), true).getServerName())) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                Thread.sleep(50);
            }
        }
        return true;
    }

    private static void awaitMovedAway(TableName of, ServerName crashed) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try (RegionLocator locator = TestCluster.connection().getRegionLocator(of)) {
            while (true) {
                try {
                    if (!crashed.equals(locator.getRegionLocation(row(0), true).getServerName())) {
                        return;
                    }
                } catch (java.io.IOException e) {
                    // The region is in transition: ask again.
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the region was not reassigned after " + crashed + " crashed");
                }
                Thread.sleep(100);
            }
        }
    }

    /** A live region server of the mini-cluster other than {@code server}. */
    private static ServerName otherThan(ServerName server) throws Exception {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            return admin.getRegionServers().stream().filter(s -> !s.equals(server)).findFirst()
                    .orElseThrow(() -> new AssertionError("no region server besides " + server));
        }
    }

    /** A further region server of the shared mini-cluster, online and known to the master. */
    private static JVMClusterUtil.RegionServerThread startRegionServer() throws Exception {
        JVMClusterUtil.RegionServerThread extra = SharedMiniCluster.utility().getMiniHBaseCluster()
                .startRegionServer();
        extra.waitForServerOnline();
        awaitMasterSees(extra.getRegionServer().getServerName());
        return extra;
    }

    private static void awaitMasterSees(ServerName server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Admin admin = TestCluster.connection().getAdmin()) {
            while (!admin.getRegionServers().contains(server)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the master never listed the new region server " + server);
                }
                Thread.sleep(50);
            }
        }
    }

    private static byte[] row(int i) {
        return Bytes.toBytes("counter-" + i);
    }
}
