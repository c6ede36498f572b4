package io.tidemark.devcli;

import io.tidemark.bench.report.ReportWriter;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;

/** Options every benchmark command has: how long to measure, how long to warm up, where the results go. */
final class BenchOptions {

    @Option(names = "--seconds", paramLabel = "<seconds>", description = "Measured seconds per scenario.")
    Integer seconds;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "<seconds>",
            description = "Warm-up seconds per scenario, not measured (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for results.csv, the plots and summary.md "
                    + "(default: bench-results/<benchmark>-<time>).")
    Path output;

    Duration duration(CommandLine commandLine, int defaultSeconds) {
        int s = seconds == null ? defaultSeconds : seconds;
        if (s < 1) {
            throw new CommandLine.ParameterException(commandLine, "--seconds must be at least 1, got " + s);
        }
        return Duration.ofSeconds(s);
    }

    /** The --output folder, or the benchmark's default one. */
    Path outputOr(String benchmarkName) {
        return output != null ? output : ReportWriter.defaultFolder(benchmarkName);
    }

    Duration warmup(CommandLine commandLine) {
        if (warmupSeconds < 0) {
            throw new CommandLine.ParameterException(commandLine, "--warmup must not be negative, got "
                    + warmupSeconds);
        }
        return Duration.ofSeconds(warmupSeconds);
    }
}
