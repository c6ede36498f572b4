package io.tidemark.chaos.run;

import io.tidemark.chaos.check.CheckResult;
import io.tidemark.chaos.check.HistoryChecker;
import io.tidemark.chaos.check.StoreImage;
import io.tidemark.chaos.check.StoreImageFile;
import io.tidemark.chaos.child.ChildClients;
import io.tidemark.chaos.child.ChildSpec;
import io.tidemark.chaos.child.RunStart;
import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.cluster.ChaosTso;
import io.tidemark.chaos.cluster.RunTso;
import io.tidemark.chaos.cluster.TsoProcesses;
import io.tidemark.chaos.cluster.TsoSetup;
import io.tidemark.chaos.cluster.CheckedTable;
import io.tidemark.chaos.fault.FastPathDuplicates;
import io.tidemark.chaos.fault.FaultInjection;
import io.tidemark.chaos.fault.FaultKind;
import io.tidemark.chaos.fault.FaultLanes;
import io.tidemark.chaos.fault.FaultSchedule;
import io.tidemark.chaos.fault.FaultTarget;
import io.tidemark.chaos.history.CommitTally;
import io.tidemark.chaos.history.HistoryFiles;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.WatermarkSamples;
import io.tidemark.chaos.scenario.Scenario;
import io.tidemark.chaos.workload.ClientWorker;
import io.tidemark.chaos.workload.WorkloadSettings;
import io.tidemark.chaos.workload.ClientManagers;
import io.tidemark.client.TransactionManager;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.client.PostCommitMode;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One scenario, once: its own TSO, commit and timestamp tables and checked table on the shared mini-cluster; clients
 * in this JVM and in child JVMs until the time is up, with the scenario's faults meanwhile; then the run heals the
 * cluster, settles undecided writers, captures the store, reads everything back (again after flush, major
 * compaction and region moves), checks the merged history, and drops its tables.
 */
public final class ChaosRun {

    /** Namespace of every table a chaos run creates. */
    public static final String NAMESPACE = "chaos";
    /** Rows of the checked table: few, so that transactions conflict and snapshots overlap often. */
    public static final int ROWS = 16;

    /** What a run writes into its folder besides the history files, child JVM files and the store image. */
    private static final String FAULT_LOG = "faults.log";
    private static final String REPORT = "report.txt";
    private static final int MAX_OPS_PER_TRANSACTION = 4;
    private static final long STRAGGLER_MILLIS = 180_000;
    /** How long the child JVMs may take to launch and connect before the run gives up. */
    private static final long CHILD_READY_MILLIS = 120_000;
    /** How often the run looks whether it may end. */
    private static final long END_POLL_MILLIS = 100;
    /**
     * How long past its time a fixed-length run waits for fault lanes of a fixed number of rounds: each of their
     * faults gives up on its own well within it.
     */
    private static final long LANE_HOLD_MILLIS = 600_000;
    private static final AtomicInteger RUNS = new AtomicInteger();

    private final ChaosHBase cluster;
    private final Scenario scenario;
    private final CommitMode mode;
    private final long seed;
    private final RunLength length;
    private final Path directory;
    private final PostCommitMode postCommit;
    private final KeySpace keys = KeySpace.of(ROWS);

    /** @param postCommit when every client of the run (this JVM's and the child JVMs') does its post-commit */
    public ChaosRun(ChaosHBase cluster, Scenario scenario, CommitMode mode, long seed, RunLength length,
                    Path directory, PostCommitMode postCommit) {
        this.cluster = cluster;
        this.postCommit = postCommit;
        this.scenario = scenario;
        this.mode = mode;
        this.seed = seed;
        this.length = length;
        this.directory = directory;
    }

    /** The seed of one scenario run, derived from the command's seed so that every run differs but repeats. */
    public static long seedOf(long seed, Scenario scenario, CommitMode mode) {
        return seed ^ (scenario.name().hashCode() * 0x9E3779B97F4A7C15L) ^ ((long) mode.ordinal() << 32);
    }

    public ScenarioResult run() throws Exception {
        Files.createDirectories(directory);
        removeEarlierRun();
        PhaseClock clock = new PhaseClock();
        String prefix = scenario.name().replace('-', '_') + "_" + mode.name().toLowerCase(java.util.Locale.ROOT) + "_"
                + RUNS.incrementAndGet();
        TableName dataTable = TableName.valueOf(NAMESPACE, prefix + "_data");
        TidemarkConfig config = config(prefix);
        Connection connection = cluster.connection();
        try (Admin admin = connection.getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        HBaseCommitTable commitTable = new HBaseCommitTable(connection, new CommitTableSettings(config));
        Path tsoFile = RunStart.tsoFileIn(directory);
        Path startFile = RunStart.fileIn(directory);
        Files.deleteIfExists(tsoFile);
        Files.deleteIfExists(startFile);
        Files.deleteIfExists(RunStart.stopFileIn(directory));
        WorkloadSettings workload = new WorkloadSettings(keys, scenario.mix(), MAX_OPS_PER_TRANSACTION);
        ChildClients children = null;
        CompletableFuture<Void> checkedTable = CompletableFuture.completedFuture(null);
        try (RunTso tso = scenario.tso() == TsoSetup.IN_PROCESS ? new ChaosTso(connection, config)
                : new TsoProcesses(cluster, tidemarkSettings(config), directory)) {
            // The child JVMs launch and connect to HBase (seconds) while this JVM starts the TSO, creates the checked
            // table (at the same time) and prepares the faults: they touch no table before the start, and learn where
            // the TSO serves (its port, which pins them, or nothing: they follow the lease) from the TSO file.
            children = startChildren(config, dataTable, tsoFile, startFile, workload);
            checkedTable = createCheckedTable(connection, config, dataTable);
            tso.start();
            if (tso.pinnedAddress() != null) {
                config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, tso.pinnedAddress());
            }
            RunStart.announceTso(tsoFile, tso.pinnedAddress());
            clock.end("TSO start");
            awaitCreated(checkedTable, dataTable);
            try (TransactionManager tm = TransactionManager.builder(connection).config(config).build();
                 WatermarkSampler sampler = WatermarkSampler.start(commitTable, directory)) {
                clock.end("checked table");
                WorkloadSummary summary;
                try (ClientManagers clients = ClientManagers.open(connection, config)) {
                    summary = runWorkload(tso, clients, children, config, dataTable, commitTable.tableName(),
                            startFile, workload, clock);
                }
                // The in-process clients have stopped only now: closing their manager waited for their asynchronous
                // post-commits. Before, a capture could find a committed writer's shadow cells not yet written and
                // its record already gone, and UndecidedWriters would invalidate a committed transaction.
                clock.end(length.untilFulfilled() ? "clients stopping" : "workload");
                tso.ensureServing();
                cluster.restore();
                clock.end("healing");
                StoreImage image = StoreCapture.capture(connection, dataTable, commitTable, keys);
                int settled = UndecidedWriters.settle(image, commitTable);
                if (settled > 0) {
                    image = StoreCapture.capture(connection, dataTable, commitTable, keys);
                }
                StoreImageFile.write(image, directory.resolve(StoreImageFile.NAME));
                clock.end("settling and store capture");
                Verifier verifier = new Verifier(tm, connection, dataTable, keys, directory);
                verifier.readEverything("verify-1");
                clock.end("final reads");
                Verifier.compactAndMoveEverything(cluster, dataTable);
                clock.end("flush, major compaction and region moves");
                verifier.readEverything("verify-2");
                clock.end("final reads again");
                sampler.close();
                CheckResult check = new HistoryChecker(keys).check(HistoryFiles.read(directory), image,
                        WatermarkSamples.read(directory));
                clock.end("check");
                ScenarioResult result = new ScenarioResult(scenario.name(), mode, seed, summary.seconds, check,
                        summary.faults, summary.byKind, notRun(scenario, cluster.partitionsUnavailable()),
                        summary.children, summary.killed, summary.killedMidCommit, settled, summary.unfulfilled,
                        clock.toString(), directory);
                Files.writeString(directory.resolve(REPORT), ChaosReport.of(result, Integer.MAX_VALUE, true),
                        StandardCharsets.UTF_8);
                return result;
            }
        } finally {
            if (children != null) {
                children.killAll();
            }
            TableName timestampTable = config.get(TidemarkConfig.TIMESTAMP_TABLE);
            checkedTable.whenComplete((created, failure) -> dropInBackground(connection, dataTable,
                    commitTable.tableName(), timestampTable));
        }
    }

    /**
     * Creates the checked table on a thread of its own while the TSO starts (and creates its tables): both wait on the
     * master most of the time. It reads a copy of {@code config}, which the run changes meanwhile.
     */
    private CompletableFuture<Void> createCheckedTable(Connection connection, TidemarkConfig config,
                                                       TableName table) {
        TidemarkConfig copy = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        CompletableFuture<Void> created = new CompletableFuture<>();
        Thread creator = new Thread(() -> {
            try {
                CheckedTable.create(connection, copy, table, keys);
                created.complete(null);
            } catch (IOException | RuntimeException e) {
                created.completeExceptionally(e);
            }
        }, "chaos-create-table");
        creator.setDaemon(true);
        creator.start();
        return created;
    }

    private static void awaitCreated(CompletableFuture<Void> created, TableName table) throws IOException,
            InterruptedException {
        try {
            created.get();
        } catch (ExecutionException e) {
            throw new IOException("could not create the checked table " + table + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /**
     * Starts the scenario's child JVMs, each with {@link Scenario#threadsPerChild()} clients and {@code config}'s
     * settings as they are now (the TSO's address comes from {@code tsoFile}); replacements of killed ones get the
     * same.
     */
    private ChildClients startChildren(TidemarkConfig config, TableName dataTable, Path tsoFile, Path startFile,
                                       WorkloadSettings workload) throws IOException {
        Map<String, String> clientSettings = tidemarkSettings(config);
        ChildClients children = new ChildClients(cluster, directory, n -> {
            List<String> clients = new ArrayList<>();
            for (int t = 0; t < scenario.threadsPerChild(); t++) {
                clients.add("c" + n + "t" + t);
            }
            return new ChildSpec(cluster.zookeeperQuorum(), cluster.zookeeperPort(), dataTable.getNameAsString(),
                    directory, clients, seed + 1000L * n, tsoFile, startFile, workload, clientSettings);
        });
        try {
            for (int i = 0; i < scenario.childJvms(); i++) {
                children.start();
            }
        } catch (IOException | RuntimeException e) {
            children.killAll();
            throw e;
        }
        return children;
    }

    private WorkloadSummary runWorkload(RunTso tso, ClientManagers managers, ChildClients children,
                                        TidemarkConfig config, TableName dataTable, TableName commitTable,
                                        Path startFile, WorkloadSettings workload, PhaseClock clock)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, scenario.threads()));
        FastPathDuplicates duplicates = new FastPathDuplicates();
        FaultTarget target = new FaultTarget(cluster, tso, children, keys, dataTable, commitTable, config, duplicates);
        CommitTally tally = new CommitTally(directory);
        // A run until its purpose is fulfilled injects one round, each fault once the system works again after the
        // one before (the commits it asks for after the last), not after a time that a loaded machine may not fill.
        FaultInjection faults = scenario.lanes().isEmpty()
                ? new FaultSchedule(target, scenario.faults(), scenario.faultIntervalMillis(), faultSeed(seed),
                directory.resolve(FAULT_LOG), length.untilFulfilled() ? 1 : 0, () -> committedSoFar(tally),
                length.commitsAfterFaults())
                : new FaultLanes(target, lanesThatRun(scenario, cluster.partitionsUnavailable()), faultSeed(seed),
                directory.resolve(FAULT_LOG));
        try {
            faults.prepare();
            // The run's seconds start when every client works: a child JVM takes seconds to launch and connect.
            children.awaitReady(CHILD_READY_MILLIS);
            clock.end("child JVMs connecting");
            long started = System.currentTimeMillis();
            long bound = started + length.limit().toMillis() + (length.untilFulfilled() ? 0 : LANE_HOLD_MILLIS);
            RunStart.announce(startFile, bound);
            AtomicBoolean running = new AtomicBoolean(true);
            List<Future<Long>> parents = new ArrayList<>();
            for (int i = 0; i < scenario.threads(); i++) {
                parents.add(threads.submit(new ClientWorker("p" + i, cluster.connection(),
                        duplicates.wrap(cluster.connection()), managers, dataTable, workload,
                        directory, seed + i, running::get)));
            }
            faults.start();
            String unfulfilled = awaitEnd(faults, tally, started, clock);
            running.set(false);
            RunStart.announceStop(RunStart.stopFileIn(directory));
            long deadline = System.currentTimeMillis();
            faults.close();
            for (Future<Long> p : parents) {
                long left = deadline + STRAGGLER_MILLIS - System.currentTimeMillis();
                try {
                    p.get(Math.max(1, left), TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    throw new IOException("a client of scenario " + scenario.name() + " did not stop within "
                            + STRAGGLER_MILLIS / 1000 + " s of the deadline", e);
                }
            }
            children.awaitAll(Math.max(1, deadline + STRAGGLER_MILLIS - System.currentTimeMillis()));
            return new WorkloadSummary(faults.injected(), faults.byKind(), children.started(), children.killed(),
                    children.killedMidCommit(), (deadline - started) / 1000, unfulfilled);
        } finally {
            faults.close();
            children.killAll();
            threads.shutdownNow();
        }
    }

    /**
     * Waits until the workload may end: a fixed-length run at its time, or later while a lane of a fixed number of
     * rounds is not through them; a run until its purpose is fulfilled, then, or at its limit. Returns what the run
     * did not do by then (empty when nothing is missing).
     */
    private String awaitEnd(FaultInjection faults, CommitTally tally, long started, PhaseClock clock)
            throws IOException, InterruptedException {
        RunPurpose purpose = new RunPurpose(faults, tally, scenario.mix(), length.commitsAfterFaults());
        long limit = started + length.limit().toMillis();
        boolean faultsDone = false;
        while (true) {
            long now = System.currentTimeMillis();
            if (length.untilFulfilled()) {
                boolean fulfilled = purpose.fulfilled();
                if (!faultsDone && purpose.faultsDone()) {
                    faultsDone = true;
                    clock.end("workload until every fault was injected");
                }
                if (fulfilled) {
                    clock.end("commits after the faults");
                    return "";
                }
                if (now >= limit) {
                    return "not fulfilled within " + length.limit().toSeconds() + " s: " + purpose.missing();
                }
            } else if (now >= limit && !faults.holdsEnd()) {
                return "";
            } else if (now >= limit + LANE_HOLD_MILLIS) {
                return "fault lanes not through within " + LANE_HOLD_MILLIS / 1000 + " s after the run's time: "
                        + String.join(", ", faults.notYetInjected());
            }
            Thread.sleep(END_POLL_MILLIS);
        }
    }

    /** Every transaction the run's clients committed so far; 0 when the history files cannot be read now. */
    private static int committedSoFar(CommitTally tally) {
        try {
            return tally.update().values().stream().mapToInt(Integer::intValue).sum();
        } catch (IOException e) {
            return 0;
        }
    }

    private TidemarkConfig config(String prefix) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        // Active and standby TSO processes run side by side: each takes a free HTTP port.
        config.set(TidemarkConfig.TSO_HTTP_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + prefix + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "4");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + prefix + "_timestamps");
        config.set(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, "50");
        config.set(TidemarkConfig.CLIENT_POST_COMMIT, postCommit.configName());
        scenario.settings().forEach(config.hadoopConfiguration()::set);
        return config;
    }

    /** Histories of an earlier run in the same folder would be merged into this one's: remove what runs write. */
    private void removeEarlierRun() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (Files.isRegularFile(f) && (name.endsWith(HistoryFiles.SUFFIX) || name.startsWith("child-")
                        || name.startsWith("tso-") || name.equals("hbase-site.xml") || name.equals(FAULT_LOG)
                        || name.equals(REPORT) || name.equals(StoreImageFile.NAME)
                        || name.equals(WatermarkSamples.FILE))) {
                    Files.delete(f);
                }
            }
        }
    }

    private static Map<String, String> tidemarkSettings(TidemarkConfig config) {
        Map<String, String> settings = new HashMap<>();
        for (Map.Entry<String, String> e : config.hadoopConfiguration()) {
            if (e.getKey().startsWith("tidemark.")) {
                settings.put(e.getKey(), e.getValue());
            }
        }
        return settings;
    }

    /** Drops the run's tables while the next run starts: nothing reads them any more. */
    private static void dropInBackground(Connection connection, TableName... tables) {
        Thread dropper = new Thread(() -> {
            for (TableName t : tables) {
                try {
                    CheckedTable.drop(connection, t);
                } catch (IOException | RuntimeException e) {
                    // Left behind in the run's own namespace; the mini-cluster goes away with the command.
                }
            }
        }, "chaos-drop-tables");
        dropper.setDaemon(true);
        dropper.start();
    }

    /** The seed of a run's faults, from the run's seed. */
    public static long faultSeed(long runSeed) {
        return runSeed ^ 0x5EEDL;
    }

    /**
     * The scenario's lanes as they run on a cluster where partitions are unavailable for {@code why} (null: they
     * are available): without the partition faults.
     */
    public static List<FaultLanes.Lane> lanesThatRun(Scenario scenario, String why) {
        List<FaultLanes.Lane> lanes = new ArrayList<>();
        for (FaultLanes.Lane lane : scenario.lanes()) {
            List<FaultKind> faults = lane.faults().stream().filter(f -> why == null || !f.partition()).toList();
            if (!faults.isEmpty()) {
                lanes.add(new FaultLanes.Lane(lane.name(), faults, lane.minGapMillis(), lane.maxGapMillis(),
                        lane.rounds()));
            }
        }
        return lanes;
    }

    /** The scenario's faults that cannot run where partitions are unavailable for {@code why}, each with why. */
    public static List<String> notRun(Scenario scenario, String why) {
        List<String> notRun = new ArrayList<>();
        if (why == null) {
            return notRun;
        }
        for (FaultLanes.Lane lane : scenario.lanes()) {
            for (FaultKind f : lane.faults()) {
                if (f.partition()) {
                    notRun.add(f.description() + " (not run: " + why + ")");
                }
            }
        }
        return notRun;
    }

    /** What the workload phase did. */
    private record WorkloadSummary(int faults, Map<String, Integer> byKind, int children, int killed,
                                   int killedMidCommit, long seconds, String unfulfilled) {
    }
}
