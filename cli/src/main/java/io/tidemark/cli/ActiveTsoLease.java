package io.tidemark.cli;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The active TSO's HTTP endpoint as its lease znode in the HBase cluster's ZooKeeper names it (the {@code http} line
 * of {@link TsoLeaseNode}): how {@code status} finds the TSO when no {@code --tso} is given.
 */
final class ActiveTsoLease {

    private ActiveTsoLease() {
    }

    /**
     * @throws IOException when ZooKeeper cannot be read, no TSO holds the lease, or the holder has no HTTP endpoint
     */
    static HostAndPort httpEndpoint(TidemarkConfig config, Duration timeout) throws IOException {
        String path = TsoLeaseNode.path(config);
        String quorum = ZooKeeperQuorum.connectString(config.hadoopConfiguration());
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        TsoLeaseNode holder;
        try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(quorum)
                .connectionTimeoutMs(millis).sessionTimeoutMs(Math.max(millis, 10_000))
                .retryPolicy(new RetryOneTime(100)).build()) {
            zk.start();
            if (!zk.blockUntilConnected(millis, TimeUnit.MILLISECONDS)) {
                throw new IOException("could not reach ZooKeeper " + quorum + " within " + millis + " ms to find the"
                        + " active TSO; check --hbase-site, or name the TSO with --tso");
            }
            holder = TsoLeaseNode.decode(zk.getData().forPath(path));
        } catch (KeeperException.NoNodeException e) {
            throw new IOException("no TSO holds the lease " + path + " in ZooKeeper " + quorum + ": none is running"
                    + " for these tables (" + TidemarkConfig.TIMESTAMP_TABLE + ", " + TidemarkConfig.ZOOKEEPER_ROOT
                    + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading the TSO lease " + path);
        } catch (IllegalArgumentException e) {
            throw new IOException("the TSO lease " + path + " is unreadable: " + e.getMessage(), e);
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("could not read the TSO lease " + path + " in ZooKeeper " + quorum + ": "
                    + e.getMessage(), e);
        }
        if (holder.httpAddress() == null) {
            throw new IOException("the active TSO " + holder.address() + " (lease " + path + ") has no HTTP endpoint"
                    + " (" + TidemarkConfig.TSO_HTTP_PORT + " is -1 there, or it runs an older Tidemark)");
        }
        return holder.httpAddress();
    }
}
