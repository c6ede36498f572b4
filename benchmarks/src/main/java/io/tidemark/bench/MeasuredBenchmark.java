package io.tidemark.bench;

import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;

import java.io.IOException;
import java.io.PrintStream;

/**
 * What a benchmark on an HBase starts from and ends with, so that it only fills in its runs: what it runs on, its
 * options, where it logs, the clock its progress is counted in (planned from the options), and the report of its
 * results in the options' output folder.
 *
 * @param <O> the benchmark's options
 */
public abstract class MeasuredBenchmark<O extends BenchmarkOptions> {

    protected final BenchTarget target;
    protected final O options;
    protected final PrintStream log;
    protected final ProgressClock clock;

    /** @param plannedSeconds the warm-up and measured seconds the options add up to (the progress bar's length) */
    protected MeasuredBenchmark(BenchTarget target, O options, PrintStream log, ProgressListener progress,
                                long plannedSeconds) {
        this.target = target;
        this.options = options;
        this.log = log;
        this.clock = new ProgressClock(progress, plannedSeconds);
    }

    /** Writes {@code table} and the report titled {@code title}, whose {@code notes} end with the environment. */
    protected final void writeResults(String title, ResultTable table, StringBuilder notes) throws IOException {
        notes.append(ReportWriter.environment()).append('\n');
        ReportWriter.write(options.run().outputFolder(), title, table, notes.toString(), target.storage());
    }
}
