package io.tidemark.devcli;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.embedded.EmbeddedHBase;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Runs one benchmark on what its {@link BenchClusterOptions} chose (a fresh embedded HBase on its storage, or an
 * existing cluster), with a progress bar, and tells where the results went.
 */
final class BenchmarkRunner {

    /** The benchmark itself, given what it runs on and where to report progress. */
    @FunctionalInterface
    interface Body<R> {
        R run(BenchTarget target, ProgressListener progress) throws Exception;
    }

    private BenchmarkRunner() {
    }

    /**
     * @param plannedSeconds the warm-up and measured seconds the benchmark plans (the bar's length); set-up and
     *                       preloading come on top
     * @param commitModes    the TSO commit modes the benchmark measures: on an existing cluster its TSO must run in
     *                       each of them (a usage error otherwise)
     */
    static <R> R run(BenchOptions bench, String name, long plannedSeconds, Collection<CommitMode> commitModes,
                     Body<R> body) throws Exception {
        R result = onTarget(bench, name, plannedSeconds, commitModes, (target, ignored) -> {
            try (ProgressDisplay display = new ProgressDisplay(name, plannedSeconds, "s")) {
                return body.run(target, (done, planned, phase) -> display.update(done, phase));
            }
        });
        System.out.println();
        return result;
    }

    /** As {@link #run}, without a progress bar (for benchmarks that print their own progress). */
    static <R> R onTarget(BenchOptions bench, String name, long plannedSeconds, Collection<CommitMode> commitModes,
                          Body<R> body) throws Exception {
        BenchClusterOptions cluster = bench.cluster();
        cluster.validate(bench.commandLine());
        if (cluster.existingCluster()) {
            Configuration conf = cluster.hbaseConfiguration();
            System.out.printf("Connecting to the existing cluster (%s benchmark: about %d s of measurement plus "
                    + "set-up)...%n", name, plannedSeconds);
            try (Connection connection = ConnectionFactory.createConnection(conf)) {
                BenchTarget target = BenchTarget.external(connection, cluster.clientConfig(conf),
                        cluster.describeExistingCluster());
                requireModes(bench, target, commitModes);
                return body.run(target, ProgressListener.NONE);
            }
        }
        System.out.printf("Starting an embedded HBase on %s storage (%s benchmark: about %d s of measurement plus "
                + "set-up)...%n", cluster.storage().label(), name, plannedSeconds);
        try (EmbeddedHBase hbase = EmbeddedHBase.start(cluster.storage())) {
            return body.run(BenchTarget.embedded(hbase.connection(), cluster.storage()), ProgressListener.NONE);
        }
    }

    private static void requireModes(BenchOptions bench, BenchTarget target, Collection<CommitMode> modes) {
        String missing = modes.stream().distinct().filter(m -> !target.serves(m)).map(CommitMode::configName)
                .collect(Collectors.joining(", "));
        if (!missing.isEmpty()) {
            throw bench.usageError("the existing cluster's TSO runs in " + target.externalMode().configName()
                    + " mode, but this run measures " + missing + " too: choose modes of that TSO (--modes), or run "
                    + "on an embedded HBase (--storage)");
        }
    }

    /** The TSO commit modes that benchmark modes need (none for raw HBase back to back). */
    static List<CommitMode> commitModes(List<TxMode> modes) {
        return modes.stream().map(TxMode::commitMode).filter(Objects::nonNull).distinct().toList();
    }

    /** The closing lines every benchmark command prints. */
    static void printResults(String table, Path outputFolder) {
        System.out.print(table);
        System.out.println();
        System.out.println("Results written to " + outputFolder.toAbsolutePath());
    }
}
