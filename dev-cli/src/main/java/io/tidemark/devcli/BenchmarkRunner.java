package io.tidemark.devcli;

import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.embedded.EmbeddedHBase;
import org.apache.hadoop.hbase.client.Connection;

import java.nio.file.Path;

/** Runs one benchmark on a fresh embedded HBase with a progress bar, and tells where the results went. */
final class EmbeddedBenchmark {

    /** The benchmark itself, given the HBase connection and where to report progress. */
    @FunctionalInterface
    interface Body<R> {
        R run(Connection connection, ProgressListener progress) throws Exception;
    }

    private EmbeddedBenchmark() {
    }

    /**
     * @param plannedSeconds the warm-up and measured seconds the benchmark plans (the bar's length); set-up and
     *                       preloading come on top
     */
    static <R> R run(String name, long plannedSeconds, Body<R> body) throws Exception {
        System.out.printf("Starting an embedded HBase (%s benchmark: about %d s of measurement plus set-up)...%n",
                name, plannedSeconds);
        R result;
        try (EmbeddedHBase hbase = EmbeddedHBase.start();
             ProgressDisplay display = new ProgressDisplay(name, plannedSeconds, "s")) {
            result = body.run(hbase.connection(), (done, planned, phase) -> display.update(done, phase));
        }
        System.out.println();
        return result;
    }

    /** The closing lines every benchmark command prints. */
    static void printResults(String table, Path outputFolder) {
        System.out.print(table);
        System.out.println();
        System.out.println("Results written to " + outputFolder.toAbsolutePath());
    }
}
