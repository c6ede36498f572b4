package io.tidemark.devcli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Parent of the benchmark commands. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks on an embedded HBase (--storage local|hdfs) or, most of them, on an existing "
                + "cluster (--hbase-site); results go to bench-results/ as CSV, PNG plots and Markdown."},
        subcommands = {BenchLatencyBySizeCommand.class, BenchThroughputLatencyCommand.class,
                BenchBreakdownCommand.class, BenchTsoCommand.class, BenchContentionCommand.class,
                BenchEndToEndCommand.class, BenchFailoverCommand.class, BenchAttacksCommand.class,
                BenchTlsCommand.class, BenchStalenessCommand.class,
                BenchDurabilityCommand.class, BenchFanoutCommand.class, BenchTpccCommand.class})
final class BenchCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing benchmark: use latency-by-size, "
                + "throughput-latency, breakdown, tso, contention, e2e, failover, attacks, tls, staleness, durability, "
                + "fanout or tpcc");
    }
}
