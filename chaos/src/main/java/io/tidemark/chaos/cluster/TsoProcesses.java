package io.tidemark.chaos.cluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.TsoProcess;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The TSO of one chaos run as {@code tidemark tso} processes (docs/operations.md): one active, one standby, both
 * reading the run's settings from an {@code hbase-site.xml} in the run's folder; clients find the active one through
 * the lease in ZooKeeper. A failover kills the active one with {@code kill -9}; a restart stops it with SIGTERM (it
 * gives its lease up). Either way the standby takes over and a new standby is started. A TSO may also stop serving
 * by itself (a lease it could not renew: the process exits): the next fault, or the end of the run, finds the one
 * that took over and starts a new standby. Logs: {@code tso-<n>.log}.
 */
public final class TsoProcesses implements RunTso {

    private static final long START_SECONDS = 120;

    private final ChaosHBase cluster;
    private final Map<String, String> settings;
    private final Path directory;
    private final List<TsoProcess> launched = new ArrayList<>();
    private Path site;
    private TsoProcess active;
    private TsoProcess standby;

    /** @param settings the run's {@code tidemark.*} settings for the TSO */
    public TsoProcesses(ChaosHBase cluster, Map<String, String> settings, Path directory) {
        this.cluster = cluster;
        this.settings = Map.copyOf(settings);
        this.directory = directory;
    }

    /** Starts both processes at once; whichever takes the lease first is the active one. */
    @Override
    public synchronized void start() throws IOException, InterruptedException {
        site = writeSite();
        TsoProcess first = launch();
        TsoProcess second = launch();
        await(CompletableFuture.anyOf(first.activeEpoch(), second.activeEpoch()), "neither " + first + " nor "
                + second + " became active");
        active = first.activeEpoch().isDone() ? first : second;
        standby = active == first ? second : first;
        await(standby.standingBy(), standby + " did not stand by");
    }

    @Override
    public String pinnedAddress() {
        return null;
    }

    @Override
    public synchronized String restart(Random random) throws IOException, InterruptedException {
        TsoProcess stopped = serving();
        stopped.close();
        return takeOver(stopped, "stopped " + stopped + " (SIGTERM)");
    }

    @Override
    public synchronized String failover() throws IOException, InterruptedException {
        TsoProcess killed = serving();
        killed.killHard();
        return takeOver(killed, "killed " + killed + " (kill -9)");
    }

    /**
     * The TSO process that serves now, waiting for a take-over in progress; a standby is running afterwards. A
     * standby that took over by itself (the active one lost its lease) has said so by now.
     */
    public synchronized TsoProcess serving() throws IOException, InterruptedException {
        if (standby != null && standby.activeEpoch().isDone()) {
            // It took over by itself: the active one lost its lease (paused, cut off from ZooKeeper) and exits.
            active = standby;
            standby = null;
        } else if (active.exit().isDone()) {
            TsoProcess gone = active;
            if (standby == null || standby.exit().isDone()) {
                standby = launch();
            }
            await(standby.activeEpoch(), standby + " did not take over from " + gone + ", which exited");
            active = standby;
            standby = null;
        }
        ensureStandby();
        return active;
    }

    /** The TSO process that stands by (after {@link #serving()}). */
    public synchronized TsoProcess standby() {
        return standby;
    }

    /** A fault interrupted at the end of the workload may have left the standby taking over, or nobody serving. */
    @Override
    public synchronized void ensureServing() throws IOException, InterruptedException {
        serving();
    }

    /** The run is over: every TSO process is killed (their leases do not matter any more). */
    @Override
    public synchronized void close() {
        for (TsoProcess tso : launched) {
            try {
                tso.killHard();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Starts a standby when none runs. It may still be starting when a fault acts on the active one: a TSO's start
     * needs HBase's master, which another fault may have taken away, and an active TSO without a standby is a case
     * of its own.
     */
    private void ensureStandby() throws IOException {
        if (standby == null || standby.exit().isDone()) {
            standby = launch();
        }
    }

    private String takeOver(TsoProcess gone, String what) throws IOException, InterruptedException {
        long since = System.nanoTime();
        if (standby == null || standby.exit().isDone()) {
            standby = launch();
        }
        long epoch = await(standby.activeEpoch(), standby + " did not take over from " + gone);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        active = standby;
        // The new standby starts meanwhile; whatever acts on the TSOs next waits until it stands by (serving()).
        standby = launch();
        return what + "; " + active + " took over after " + millis + " ms (epoch " + epoch + "); started "
                + standby + " to stand by";
    }

    private TsoProcess launch() throws IOException {
        String name = "tso-" + (launched.size() + 1);
        List<TsoProcess> running = new ArrayList<>();
        for (TsoProcess tso : launched) {
            if (!tso.exit().isDone()) {
                running.add(tso);
            }
        }
        TsoProcess tso = cluster.startTso(name, site, directory.resolve(name + ".log"), running);
        launched.add(tso);
        return tso;
    }

    /** This cluster's ZooKeeper and the run's Tidemark settings, as the TSO processes read them. */
    private Path writeSite() throws IOException {
        Configuration conf = new Configuration(false);
        conf.set(HConstants.ZOOKEEPER_QUORUM, cluster.zookeeperQuorum());
        conf.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, cluster.zookeeperPort());
        settings.forEach(conf::set);
        conf.set(TidemarkConfig.TSO_HOST.key(), "127.0.0.1");
        conf.set(TidemarkConfig.TSO_PORT.key(), "0");
        Path file = directory.resolve("hbase-site.xml");
        try (OutputStream out = Files.newOutputStream(file)) {
            conf.writeXml(out);
        }
        return file;
    }

    private static <T> T await(CompletableFuture<T> future, String failure) throws IOException,
            InterruptedException {
        try {
            return future.get(START_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IOException(failure + " within " + START_SECONDS + " s", e);
        } catch (ExecutionException e) {
            throw new IOException(failure + ": " + e.getCause().getMessage(), e.getCause());
        }
    }
}
