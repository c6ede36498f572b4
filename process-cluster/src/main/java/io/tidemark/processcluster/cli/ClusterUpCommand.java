package io.tidemark.processcluster.cli;

import io.tidemark.processcluster.ClusterFiles;
import io.tidemark.processcluster.ClusterLayout;
import io.tidemark.processcluster.ClusterState;
import io.tidemark.processcluster.Member;
import io.tidemark.processcluster.MemberProcess;
import io.tidemark.processcluster.PortChooser;
import io.tidemark.processcluster.ProcessCluster;
import io.tidemark.processcluster.Role;
import io.tidemark.processcluster.network.HostNetwork;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Starts the process cluster and leaves it running; prints what an application needs to use it. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Starts the cluster in the background and returns once HBase serves and a TSO is active;"
                + " prints the hbase-site.xml an application needs. Its processes run until ./tidemark cluster down,"
                + " on this machine's network: each on its own 127.0.x.y address, on the usual port of its kind"
                + " when that is free."})
final class ClusterUpCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterDirectoryOption dir;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ClusterFiles files = dir.files();
        if (ClusterState.read(files).map(s -> s.members().keySet().stream()
                .anyMatch(m -> s.process(m, files).isPresent())).orElse(false)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "a cluster already runs in "
                    + files.directory() + ": ./tidemark cluster down --dir " + files.directory() + " first");
        }
        deleteRecursively(files);
        PrintStream out = System.out;
        long started = System.nanoTime();
        ProcessCluster cluster = ProcessCluster.start(ClusterLayout.of(0, PortChooser.FREE),
                new HostNetwork("./tidemark cluster up runs on this machine's own network"), files.directory(), out);
        try {
            out.println("Starting the TSOs...");
            cluster.startTsos(Map.of());
            ClusterState.of(cluster).write(files);
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        print(cluster, Duration.ofNanos(System.nanoTime() - started), out);
        return 0;
    }

    static void print(ProcessCluster cluster, Duration took, PrintStream out) {
        Map<String, Duration> phases = cluster.startTimes();
        out.printf(Locale.ROOT, "%nProcess cluster up in %d s (%s); %d processes, %.1f GiB resident.%n%n",
                took.toSeconds(), Stream.of("zookeeper", "hdfs", "hbase", "tsos").filter(phases::containsKey)
                        .map(p -> p + " " + phases.get(p).toSeconds() + " s").collect(Collectors.joining(", ")),
                cluster.running().size(), cluster.residentKb() / 1024.0 / 1024.0);
        for (Member m : cluster.layout().members()) {
            MemberProcess p = cluster.process(m.name());
            if (p != null) {
                out.printf(Locale.ROOT, "  %-14s %-16s %-40s pid %d%n", m.name(), m.address(), m.ports(), p.pid());
            }
        }
        Member active = cluster.activeTso();
        out.println();
        out.println("An application needs only this hbase-site.xml (" + cluster.clientSite() + "):");
        out.println();
        out.println("  <property><name>hbase.zookeeper.quorum</name><value>" + cluster.layout().zookeeperQuorum()
                + "</value></property>");
        out.println();
        out.println("It finds the active TSO through its lease in ZooKeeper. TSOs: " + cluster.layout()
                .ofRole(Role.TSO).stream().map(t -> t.endpoint(ClusterLayout.CLIENT) + (t.equals(active)
                        ? " (active)" : " (standby)")).collect(Collectors.joining(", ")) + ".");
        out.println("Logs: " + cluster.files().directory().resolve("logs") + ". Stop it with ./tidemark cluster down"
                + " --dir " + cluster.files().directory() + ".");
    }

    static void deleteRecursively(ClusterFiles files) throws java.io.IOException {
        if (!Files.exists(files.directory())) {
            return;
        }
        try (Stream<java.nio.file.Path> paths = Files.walk(files.directory())) {
            for (java.nio.file.Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
