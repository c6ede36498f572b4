package io.tidemark.devcli;

import io.tidemark.bench.RunSettings;
import io.tidemark.bench.progress.WarmUp;
import io.tidemark.bench.report.ReportWriter;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Options every benchmark command that runs on a cluster has: how long to measure, how long to warm up, where the
 * results go, and ({@link BenchClusterOptions}) what it runs on. Bad values are usage errors of the command that
 * mixes these in.
 */
final class BenchOptions {

    @Option(names = "--seconds", paramLabel = "<seconds>", description = "Measured seconds per scenario.")
    private Integer seconds;

    @Option(names = "--warmup", defaultValue = "3", paramLabel = "<seconds>",
            description = "Least warm-up seconds per scenario, not measured; the warm-up goes on while the JIT "
                    + "compiler is busy, up to " + WarmUp.LONGEST_SECONDS + " s (default: ${DEFAULT-VALUE}; 0 for none).")
    private int warmupSeconds;

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for results.csv, the plots and summary.md "
                    + "(default: bench-results/<benchmark>-<time>).")
    private Path output;

    @Mixin
    private BenchClusterOptions cluster;

    @Spec(Spec.Target.MIXEE)
    private CommandLine.Model.CommandSpec command;

    /**
     * The run settings from --warmup, --seconds (or the benchmark's default) and --output (or the benchmark's default
     * folder); a negative warm-up or less than 1 measured second is a usage error naming the option.
     */
    RunSettings run(int defaultSeconds, String benchmarkName) {
        if (warmupSeconds < 0) {
            throw usageError("--warmup must not be negative, got " + warmupSeconds);
        }
        int measured = seconds == null ? defaultSeconds : seconds;
        if (measured < 1) {
            throw usageError("--seconds must be at least 1, got " + measured);
        }
        return new RunSettings(Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(measured),
                ReportWriter.outputFolder(output, benchmarkName));
    }

    BenchClusterOptions cluster() {
        return cluster;
    }

    /**
     * The benchmark's options, built from the command line's values; the {@link IllegalArgumentException} an options
     * class throws for a bad value becomes a usage error naming it.
     */
    <O> O options(Supplier<O> build) {
        return UsageErrors.options(commandLine(), build);
    }

    CommandLine commandLine() {
        return command.commandLine();
    }

    CommandLine.ParameterException usageError(String message) {
        return new CommandLine.ParameterException(commandLine(), message);
    }
}
