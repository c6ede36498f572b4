package io.tidemark.client.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.lease.TsoLeaseNode;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;

/**
 * The active TSO as named by its lease znode ({@link TsoLeaseNode}) in the HBase cluster's ZooKeeper. Read without
 * a watch (the holder rewrites the node every renewal, so a watch would fire several times a second for nothing):
 * the address is read once and again after every failed connection attempt, which is exactly when a failover may
 * have moved it. Reads run in the background and never block the caller.
 */
final class ZooKeeperTsoAddress implements TsoAddressSource {

    private static final int SESSION_TIMEOUT_MS = 30_000;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final CuratorFramework zk;
    private final String connectString;
    private final String path;
    private volatile @Nullable HostAndPort cached;

    ZooKeeperTsoAddress(String connectString, String path) {
        this.connectString = connectString;
        this.path = path;
        this.zk = CuratorFrameworkFactory.builder()
                .connectString(connectString)
                .sessionTimeoutMs(SESSION_TIMEOUT_MS)
                .connectionTimeoutMs(CONNECT_TIMEOUT_MS)
                .retryPolicy(new BoundedExponentialBackoffRetry(50, 500, 3))
                .build();
        zk.start();
    }

    @Override
    public CompletableFuture<HostAndPort> resolve(boolean fresh) {
        HostAndPort known = cached;
        if (known != null && !fresh) {
            return CompletableFuture.completedFuture(known);
        }
        CompletableFuture<HostAndPort> result = new CompletableFuture<>();
        try {
            zk.getData().inBackground((client, event) -> complete(event, result)).forPath(path);
        } catch (Exception e) {
            result.completeExceptionally(new TsoUnavailableException("could not read the TSO lease " + path
                    + " in ZooKeeper " + connectString + ": " + e.getMessage(), e));
        }
        return result;
    }

    private void complete(CuratorEvent event, CompletableFuture<HostAndPort> result) {
        KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
        if (code == KeeperException.Code.NONODE) {
            result.completeExceptionally(new TsoUnavailableException("no TSO has ever held the lease " + path
                    + " in ZooKeeper " + connectString + ": start one (./tidemark tso), with the same "
                    + "tidemark.timestamp-table.name and tidemark.zookeeper.root as this client"));
            return;
        }
        if (code != KeeperException.Code.OK) {
            result.completeExceptionally(new TsoUnavailableException("could not read the TSO lease " + path
                    + " in ZooKeeper " + connectString + ": " + code));
            return;
        }
        try {
            HostAndPort address = TsoLeaseNode.decode(event.getData()).address();
            cached = address;
            result.complete(address);
        } catch (IllegalArgumentException e) {
            result.completeExceptionally(new TsoUnavailableException("the TSO lease " + path + " is unreadable: "
                    + e.getMessage(), e));
        }
    }

    @Override
    public String describe() {
        HostAndPort known = cached;
        return "the active TSO (lease " + path + " in ZooKeeper " + connectString
                + (known != null ? ", last at " + known : "") + ")";
    }

    @Override
    public void close() {
        zk.close();
    }
}
