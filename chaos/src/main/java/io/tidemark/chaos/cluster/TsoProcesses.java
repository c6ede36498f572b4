package io.tidemark.chaos.cluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.ChildJvm;
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
 * gives its lease up). Either way the standby takes over and a new standby is started. Logs: {@code tso-<n>.log}.
 */
public final class TsoProcesses implements RunTso {

    private static final String HEAP = "384m";
    private static final long START_SECONDS = 120;

    private final ChaosCluster cluster;
    private final Map<String, String> settings;
    private final Path directory;
    private final List<TsoProcess> launched = new ArrayList<>();
    private Path site;
    private TsoProcess active;
    private TsoProcess standby;

    /** @param settings the run's {@code tidemark.*} settings for the TSO */
    public TsoProcesses(ChaosCluster cluster, Map<String, String> settings, Path directory) {
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
        TsoProcess stopped = active;
        stopped.close();
        return takeOver(stopped, "stopped " + stopped + " (SIGTERM)");
    }

    @Override
    public synchronized String failover() throws IOException, InterruptedException {
        TsoProcess killed = active;
        killed.killHard();
        return takeOver(killed, "killed " + killed + " (kill -9)");
    }

    /** A fault interrupted at the end of the workload may have left the standby taking over, or nobody serving. */
    @Override
    public synchronized void ensureServing() throws IOException, InterruptedException {
        if (!active.exit().isDone()) {
            return;
        }
        if (standby == null || standby.exit().isDone()) {
            standby = launch();
        }
        active = standby;
        standby = null;
        await(active.activeEpoch(), active + " did not become active");
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

    private String takeOver(TsoProcess gone, String what) throws IOException, InterruptedException {
        long since = System.nanoTime();
        long epoch = await(standby.activeEpoch(), standby + " did not take over from " + gone);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
        active = standby;
        standby = launch();
        await(standby.standingBy(), standby + " did not stand by");
        return what + "; " + active + " took over after " + millis + " ms (epoch " + epoch + "); " + standby
                + " stands by";
    }

    private TsoProcess launch() throws IOException {
        String name = "tso-" + (launched.size() + 1);
        TsoProcess tso = TsoProcess.start(name, ChildJvm.command(HEAP, io.tidemark.cli.Main.class.getName(), "tso",
                "--port", "0", "--hbase-site", site.toString()), directory.resolve(name + ".log"));
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
