package io.tidemark.tso.lease;

import io.tidemark.lease.TsoLeaseNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A held ZooKeeper lease: renewed by a compare-and-set of the znode version every renew interval on one thread, and
 * watched on another, so that a renewal stuck in a ZooKeeper outage cannot delay noticing the end of the lease.
 */
final class ZooKeeperLease implements Lease {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLease.class);

    private final CuratorFramework zk;
    private final String path;
    private final TsoLeaseNode self;
    private final LeaseTiming timing;
    private final LeaseLossListener onLoss;
    private final ScheduledExecutorService threads;
    private final AtomicBoolean ended = new AtomicBoolean();
    /** Only the renewal thread writes it (release() reads it after stopping that thread). */
    private volatile int version;
    private volatile long validUntil;
    private boolean renewalFailing;

    ZooKeeperLease(CuratorFramework zk, String path, TsoLeaseNode self, LeaseTiming timing, int version,
                   long renewalStart, LeaseLossListener onLoss) {
        this.zk = zk;
        this.path = path;
        this.self = self;
        this.timing = timing;
        this.onLoss = onLoss;
        this.version = version;
        this.validUntil = timing.validUntil(renewalStart);
        this.threads = Executors.newScheduledThreadPool(2, runnable -> {
            Thread t = new Thread(runnable, "tidemark-tso-lease");
            t.setDaemon(true);
            return t;
        });
        long renew = timing.renewIntervalNanos();
        threads.scheduleWithFixedDelay(this::renew, renew, renew, TimeUnit.NANOSECONDS);
        threads.scheduleAtFixedRate(this::checkExpiry, renew / 2, renew / 2, TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean isValid() {
        return !ended.get() && System.nanoTime() - validUntil < 0;
    }

    @Override
    public long remainingNanos() {
        return ended.get() ? 0 : Math.max(0, validUntil - System.nanoTime());
    }

    private void renew() {
        if (ended.get()) {
            return;
        }
        long start = System.nanoTime();
        try {
            try {
                Stat stat = zk.setData().withVersion(version).forPath(path, self.encode());
                extend(stat.getVersion(), start);
            } catch (KeeperException.BadVersionException moved) {
                // Our own write may have landed while its reply was lost (and was retried): then the node still
                // names us, and no other TSO can have written since (they would have written their own name).
                Stat stat = new Stat();
                byte[] data = zk.getData().storingStatIn(stat).forPath(path);
                TsoLeaseNode holder = TsoLeaseNode.decode(data);
                if (holder.holder().equals(self.holder())) {
                    extend(stat.getVersion(), start);
                } else {
                    lose("the lease was taken over by " + holder);
                }
            }
        } catch (KeeperException.NoNodeException gone) {
            lose("the lease znode " + path + " was deleted");
        } catch (Exception e) {
            if (ended.get()) {
                return;
            }
            if (!renewalFailing) {
                LOG.warn("Could not renew the lease {} (will retry until it runs out): {}", path, e.toString());
                renewalFailing = true;
            }
        }
    }

    private void extend(int newVersion, long renewalStart) {
        version = newVersion;
        validUntil = timing.validUntil(renewalStart);
        if (renewalFailing) {
            LOG.info("Renewing the lease {} works again", path);
            renewalFailing = false;
        }
    }

    private void checkExpiry() {
        if (!ended.get() && !isValid()) {
            lose("the lease could not be renewed in time (ZooKeeper unreachable or too slow for "
                    + TimeUnit.NANOSECONDS.toMillis(timing.holdNanos()) + " ms)");
        }
    }

    private void lose(String reason) {
        if (ended.compareAndSet(false, true)) {
            threads.shutdown();
            LOG.error("Lost the TSO lease {}: {}", path, reason);
            onLoss.leaseLost(reason);
        }
    }

    /** Stops renewing without giving the lease up (a standby then waits it out). */
    void stopRenewing() {
        ended.set(true);
        threads.shutdownNow();
    }

    @Override
    public void release() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
            try {
                zk.delete().withVersion(version).forPath(path);
            } catch (KeeperException.BadVersionException moved) {
                // A renewal cut short by the shutdown may have landed unseen: then the node still names us, at a
                // newer version, and is ours to delete.
                Stat stat = new Stat();
                byte[] data = zk.getData().storingStatIn(stat).forPath(path);
                if (!TsoLeaseNode.decode(data).holder().equals(self.holder())) {
                    throw moved;
                }
                zk.delete().withVersion(stat.getVersion()).forPath(path);
            }
            LOG.info("Released the lease {}", path);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // The lease then simply runs out: the next TSO waits a lease period longer.
            LOG.warn("Could not release the lease {}: {}", path, e.toString());
        }
    }
}
