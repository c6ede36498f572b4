package io.tidemark.chaos.child;

import io.tidemark.chaos.workload.ClientManagers;
import io.tidemark.chaos.workload.ClientWorker;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Main class of a child JVM: connects, learns where the run's TSO serves, says it is ready, waits for the run to
 * start ({@link RunStart}), runs the clients its {@link ChildSpec} names until the run stops them, then
 * exits 0. It also exits when its parent goes away (its standard input closes), so no child outlives a run.
 */
public final class ChildClientMain {

    /** How long a child waits for the run's TSO, and then for the run to start, before it gives up. */
    private static final long START_TIMEOUT_MILLIS = 300_000;

    private ChildClientMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ChildClientMain <child spec properties file>");
            System.exit(2);
        }
        Path specFile = Path.of(args[0]);
        ChildSpec spec = ChildSpec.read(specFile);
        exitWhenParentGoesAway();
        System.exit(run(spec, RunStart.readyFileOf(specFile)));
    }

    private static int run(ChildSpec spec, Path readyFile) throws Exception {
        Configuration hbase = HBaseConfiguration.create();
        hbase.set(HConstants.ZOOKEEPER_QUORUM, spec.zookeeperQuorum());
        hbase.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, spec.zookeeperPort());
        hbase.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 20);
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        spec.tidemark().forEach(config.hadoopConfiguration()::set);
        try (Connection connection = ConnectionFactory.createConnection(hbase)) {
            // Launched while the run's TSO starts: connected to HBase, it waits to learn where the TSO serves.
            RunStart.awaitTso(spec.tsoFile(), START_TIMEOUT_MILLIS).ifPresent(address ->
                    config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, address));
            try (ClientManagers managers = ClientManagers.open(connection, config)) {
                return runClients(spec, connection, managers, readyFile);
            }
        }
    }

    /** Says it is ready, waits for the start and runs its clients until the run stops; 0 when none failed. */
    private static int runClients(ChildSpec spec, Connection connection, ClientManagers managers, Path readyFile)
            throws Exception {
        Files.createFile(readyFile);
        long deadline = RunStart.await(spec.startFile(), START_TIMEOUT_MILLIS);
        BooleanSupplier keepGoing = RunStart.untilStopped(RunStart.stopFileIn(spec.startFile().getParent()),
                deadline);
        ExecutorService threads = Executors.newFixedThreadPool(spec.clients().size());
        List<Future<Long>> done = new ArrayList<>();
        for (int i = 0; i < spec.clients().size(); i++) {
            done.add(threads.submit(new ClientWorker(spec.clients().get(i), connection, connection, managers,
                    TableName.valueOf(spec.table()), spec.workload(), spec.historyDirectory(), spec.seed() + i,
                    keepGoing)));
        }
        int failed = 0;
        for (Future<Long> f : done) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                e.getCause().printStackTrace();
                failed++;
            }
        }
        threads.shutdown();
        return failed == 0 ? 0 : 1;
    }

    private static void exitWhenParentGoesAway() {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // The parent never writes; reading only waits for the end of the stream.
                }
            } catch (IOException e) {
                // Same as the end of the stream: the parent is gone.
            }
            Runtime.getRuntime().halt(3);
        }, "parent-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }
}
