package io.tidemark.tso.lease;

import io.tidemark.lease.TsoLeaseNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The lease in a persistent znode ({@link TsoLeaseNode}): acquired by creating the node or, once the holder stopped
 * renewing, by a compare-and-set of its version; renewed by the same compare-and-set every renew interval. ZooKeeper
 * session expiry plays no part (its minimum is seconds and it would make failover slow and unpredictable): only the
 * znode's version and each side's monotonic clock, as {@link LeaseTiming} explains.
 */
public final class ZooKeeperLeaseElection implements LeaseElection {

    private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperLeaseElection.class);
    private static final int SESSION_TIMEOUT_MS = 30_000;

    private final CuratorFramework zk;
    private final String path;
    private final TsoLeaseNode self;
    private final LeaseTiming timing;
    private volatile @Nullable TsoLeaseNode lastSeen;
    private volatile boolean closed;
    private volatile @Nullable ZooKeeperLease held;
    /** Released by the watch on the lease znode: the standby re-reads at once instead of at its next poll. */
    private final Semaphore changed = new Semaphore(0);
    private final Watcher wakeUp = event -> changed.release();

    private ZooKeeperLeaseElection(CuratorFramework zk, String path, TsoLeaseNode self, LeaseTiming timing) {
        this.zk = zk;
        this.path = path;
        this.self = self;
        this.timing = timing;
    }

    /**
     * An election on the lease znode {@code path} of the ZooKeeper at {@code connectString}, for a TSO described by
     * {@code self}. Connects in the background; nothing is read or written before {@link #acquire}.
     */
    public static ZooKeeperLeaseElection create(String connectString, String path, TsoLeaseNode self,
                                                LeaseTiming timing) {
        int connectTimeoutMs = (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(timing.periodNanos()));
        CuratorFramework zk = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(SESSION_TIMEOUT_MS)
                .connectionTimeoutMs(connectTimeoutMs)
                // Short retries: a renewal must give up well within the lease, the next one tries again.
                .retryPolicy(new BoundedExponentialBackoffRetry(20, 200, 3))
                .build();
        zk.start();
        return new ZooKeeperLeaseElection(zk, path, self, timing);
    }

    /** Elections on the lease znode {@code path} of the ZooKeeper at {@code connectString}. */
    public static LeaseElectionFactory factory(String connectString, String path, LeaseTiming timing) {
        return self -> create(connectString, path, self, timing);
    }

    public String path() {
        return path;
    }

    @Override
    public Lease acquire(LeaseLossListener onLoss, Consumer<TsoLeaseNode> onStandby)
            throws IOException, InterruptedException {
        int seenVersion = -1;
        long seenSince = 0;
        boolean announced = false;
        while (!closed) {
            long attemptStart = System.nanoTime();
            try {
                Stat stat = new Stat();
                byte[] data;
                try {
                    changed.drainPermits();
                    data = zk.getData().storingStatIn(stat).usingWatcher(wakeUp).forPath(path);
                } catch (KeeperException.NoNodeException free) {
                    try {
                        Stat created = new Stat();
                        zk.create().creatingParentsIfNeeded().storingStatIn(created).forPath(path, self.encode());
                        return hold(created.getVersion(), attemptStart, onLoss);
                    } catch (KeeperException.NodeExistsException raced) {
                        continue;
                    }
                }
                lastSeen = decodeOrNull(data);
                long now = System.nanoTime();
                if (stat.getVersion() != seenVersion) {
                    seenVersion = stat.getVersion();
                    seenSince = now;
                    if (!announced) {
                        LOG.info("Standing by: the lease {} is held by {}", path, describe(lastSeen));
                        announced = true;
                        onStandby.accept(lastSeen);
                    }
                } else if (now - seenSince >= timing.takeOverAfterNanos()) {
                    try {
                        Stat taken = zk.setData().withVersion(seenVersion).forPath(path, self.encode());
                        LOG.info("Took over the lease {} from {}, which did not renew it for {} ms", path,
                                describe(lastSeen), TimeUnit.NANOSECONDS.toMillis(now - seenSince));
                        return hold(taken.getVersion(), attemptStart, onLoss);
                    } catch (KeeperException.BadVersionException renewed) {
                        continue;
                    } catch (KeeperException.NoNodeException released) {
                        continue;
                    }
                }
                // Counting from the first sight of a version: seeing each renewal at once (the watch) keeps the
                // standby's count from starting late, and so the take-over from coming later than it must.
                long untilTakeOver = seenSince + timing.takeOverAfterNanos() - System.nanoTime();
                awaitChange(Math.max(1, Math.min(timing.renewIntervalNanos(), untilTakeOver)));
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("Could not read the lease {} (will retry): {}", path, e.toString());
                sleepNanos(timing.renewIntervalNanos());
            }
        }
        throw new InterruptedException("the lease election was closed");
    }

    private Lease hold(int version, long renewalStart, LeaseLossListener onLoss) {
        ZooKeeperLease lease = new ZooKeeperLease(zk, path, self, timing, version, renewalStart, onLoss);
        held = lease;
        lastSeen = self;
        return lease;
    }

    @Override
    public @Nullable TsoLeaseNode lastSeenHolder() {
        return lastSeen;
    }

    @Override
    public void close() {
        closed = true;
        ZooKeeperLease lease = held;
        if (lease != null) {
            lease.stopRenewing();
        }
        zk.close();
    }

    private void awaitChange(long nanos) throws InterruptedException {
        if (closed) {
            throw new InterruptedException("the lease election was closed");
        }
        changed.tryAcquire(nanos, TimeUnit.NANOSECONDS);
    }

    private void sleepNanos(long nanos) throws InterruptedException {
        if (closed) {
            throw new InterruptedException("the lease election was closed");
        }
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    private static @Nullable TsoLeaseNode decodeOrNull(byte[] data) {
        try {
            return TsoLeaseNode.decode(data);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String describe(@Nullable TsoLeaseNode node) {
        return node == null ? "an unreadable holder" : node.toString();
    }
}
