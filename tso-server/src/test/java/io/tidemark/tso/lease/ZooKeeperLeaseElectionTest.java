package io.tidemark.tso.lease;

import io.tidemark.config.HostAndPort;
import io.tidemark.lease.TsoLeaseNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lease on a real ZooKeeper: one holder at a time, take-over only after the holder's lease has ended. */
class ZooKeeperLeaseElectionTest {

    /** Long enough that a loaded machine never delays a renewal past it: only a stopped holder loses. */
    private static final Duration PATIENT_PERIOD = Duration.ofMillis(1500);
    /** Renewed every 100 ms: a holder must miss more than a second of renewals to lose it while it runs. */
    private static final LeaseTiming PATIENT = new LeaseTiming(PATIENT_PERIOD, Duration.ofMillis(100),
            Duration.ofMillis(200));
    /** So long that only a released lease can explain a take-over within a test. */
    private static final LeaseTiming ENDLESS = new LeaseTiming(Duration.ofMinutes(10), Duration.ofMillis(100),
            Duration.ofMillis(200));
    /** No renewal within a test: the holder's idea of the znode version stays the one it acquired. */
    private static final LeaseTiming NEVER_RENEWED = new LeaseTiming(Duration.ofMinutes(10), Duration.ofMinutes(5),
            Duration.ofMillis(200));
    private static final long WAIT_SECONDS = 60;

    private static TestZooKeeper zooKeeper;
    private static CuratorFramework inspector;
    private static final AtomicInteger TABLES = new AtomicInteger();

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = TestZooKeeper.start();
        inspector = CuratorFrameworkFactory.newClient(zooKeeper.connectString(), new RetryOneTime(100));
        inspector.start();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        inspector.close();
        zooKeeper.close();
    }

    @Test
    void firstTsoHoldsTheLeaseAtOnceAndPublishesItsAddress() throws Exception {
        String path = freshPath();
        try (ZooKeeperLeaseElection a = election(path, "a", PATIENT)) {
            Lease lease = a.acquire(reason -> { }, holder -> { throw new AssertionError("nobody held it"); });
            assertTrue(lease.isValid());
            assertEquals("a", holderAt(path).holder());
            assertEquals(new HostAndPort("127.0.0.1", 1).toString(), holderAt(path).address().toString());
        }
    }

    @Test
    void standbyTakesOverOnlyAfterTheHolderStoppedRenewingAndItsLeaseEnded() throws Exception {
        String path = freshPath();
        ZooKeeperLeaseElection a = election(path, "a", PATIENT);
        Lease leaseA = a.acquire(reason -> { }, holder -> { });
        CopyOnWriteArrayList<TsoLeaseNode> seen = new CopyOnWriteArrayList<>();
        try (ZooKeeperLeaseElection b = election(path, "b", PATIENT)) {
            CompletableFuture<Lease> leaseB = CompletableFuture.supplyAsync(() -> acquire(b, seen));
            // While "a" renews, "b" stands by: three full lease periods pass without a take-over.
            assertThrows(TimeoutException.class,
                    () -> leaseB.get(3 * PATIENT_PERIOD.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(leaseA.isValid());
            assertEquals("a", seen.get(0).holder(), "the standby saw who holds the lease");

            a.close(); // a crash: no more renewals, and the lease is not given up
            Lease taken = leaseB.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertFalse(leaseA.isValid(), "the old holder's lease had ended before the standby took over");
            assertTrue(taken.isValid());
            assertEquals("b", holderAt(path).holder());
        }
    }

    @Test
    void holderWhoseLeaseWasTakenStopsAndIsToldWhy() throws Exception {
        String path = freshPath();
        try (ZooKeeperLeaseElection a = election(path, "a", PATIENT)) {
            CompletableFuture<String> lost = new CompletableFuture<>();
            Lease lease = a.acquire(lost::complete, holder -> { });
            inspector.setData().forPath(path, node("intruder").encode());
            String reason = lost.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(reason.contains("taken over by TSO intruder"), reason);
            assertFalse(lease.isValid());
        }
    }

    @Test
    void releasedLeaseIsTakenWithoutWaitingItOut() throws Exception {
        String path = freshPath();
        ZooKeeperLeaseElection a = election(path, "a", ENDLESS);
        Lease leaseA = a.acquire(reason -> { }, holder -> { });
        try (ZooKeeperLeaseElection b = election(path, "b", ENDLESS)) {
            CompletableFuture<Lease> leaseB = CompletableFuture.supplyAsync(
                    () -> acquire(b, new CopyOnWriteArrayList<>()));
            assertThrows(TimeoutException.class, () -> leaseB.get(1, TimeUnit.SECONDS));
            leaseA.release();
            assertFalse(leaseA.isValid());
            assertTrue(leaseB.get(WAIT_SECONDS, TimeUnit.SECONDS).isValid());
            assertEquals("b", holderAt(path).holder());
        } finally {
            a.close();
        }
    }

    @Test
    void aLeaseWhoseLastRenewalLandedUnseenIsStillReleased() throws Exception {
        String path = freshPath();
        try (ZooKeeperLeaseElection a = election(path, "a", NEVER_RENEWED)) {
            Lease lease = a.acquire(reason -> { }, holder -> { });
            // What a renewal interrupted by the shutdown leaves: the node names "a" at a version "a" never saw.
            inspector.setData().forPath(path, node("a").encode());
            lease.release();
            assertNull(inspector.checkExists().forPath(path), "the lease was given up, so a standby need not wait");
        }
    }

    @Test
    void tsosOfDifferentTimestampTablesDoNotCompete() throws Exception {
        try (ZooKeeperLeaseElection a = election(freshPath(), "a", ENDLESS);
             ZooKeeperLeaseElection b = election(freshPath(), "b", ENDLESS)) {
            assertTrue(a.acquire(reason -> { }, holder -> { }).isValid());
            assertTrue(b.acquire(reason -> { }, holder -> { }).isValid());
        }
    }

    private static Lease acquire(ZooKeeperLeaseElection election, CopyOnWriteArrayList<TsoLeaseNode> seen) {
        try {
            return election.acquire(reason -> { }, seen::add);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ZooKeeperLeaseElection election(String path, String holder, LeaseTiming timing) {
        return ZooKeeperLeaseElection.create(zooKeeper.connectString(), path, node(holder), timing);
    }

    private static TsoLeaseNode node(String holder) {
        return new TsoLeaseNode(holder, new HostAndPort("127.0.0.1", 1));
    }

    private static TsoLeaseNode holderAt(String path) throws Exception {
        return TsoLeaseNode.decode(inspector.getData().forPath(path));
    }

    private static String freshPath() {
        return TsoLeaseNode.path("/tidemark-test", "ns:timestamps_" + TABLES.incrementAndGet());
    }
}
