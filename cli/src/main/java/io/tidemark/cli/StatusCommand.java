package io.tidemark.cli;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.monitoring.TsoStatus;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * {@code ./tidemark status}: what a TSO is doing, read from its HTTP endpoint's {@code /health}; the exit code says
 * whether it is healthy, so the command doubles as a health check for scripts and supervisors.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Shows a TSO's role, epoch, commit mode, uptime, low watermark, conflict-map fill, connections "
                + "and last error, read from its HTTP endpoint (docs/monitoring.md).",
                "Names the TSO with --tso, or finds the active one through its lease in the cluster's ZooKeeper "
                        + "(--hbase-site).",
                "Exit codes: 0 healthy (active, or a standby ready to take over); 1 not healthy (starting, stopped, "
                        + "down or unreachable); 2 bad usage."})
public final class StatusCommand implements Callable<Integer> {

    /** The TSO is not healthy, or could not be asked. */
    public static final int UNHEALTHY_EXIT_CODE = FailureHandler.FAILURE_EXIT_CODE;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    /** Either a TSO's endpoint, or the cluster whose active TSO to find. */
    static final class Target {

        @Option(names = "--tso", paramLabel = "<host:port>", converter = HostAndPortConverter.class,
                description = "The TSO's HTTP endpoint: its host and tidemark.tso.http.port (default "
                        + "${bundle:default.tidemark.tso.http.port}).")
        private @Nullable HostAndPort tso;

        @ArgGroup(exclusive = false)
        private @Nullable ClusterOptions cluster;
    }

    @Option(names = "--timeout-ms", paramLabel = "<ms>", defaultValue = "5000",
            description = "How long to wait for ZooKeeper and for the TSO's answer (default: ${DEFAULT-VALUE}).")
    private int timeoutMs;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (timeoutMs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--timeout-ms must be positive, got "
                    + timeoutMs);
        }
        Duration timeout = Duration.ofMillis(timeoutMs);
        HostAndPort endpoint = target.tso != null ? target.tso
                // picocli's exclusive group sets exactly one of them
                : ActiveTsoLease.httpEndpoint(new TidemarkConfig(Objects.requireNonNull(target.cluster)
                        .load(spec.commandLine())), timeout);
        TsoStatus status = new TsoHealthProbe(timeout).status(endpoint);
        PrintWriter out = spec.commandLine().getOut();
        print(status, endpoint, out);
        out.flush();
        return status.healthy() ? 0 : UNHEALTHY_EXIT_CODE;
    }

    private static void print(TsoStatus status, HostAndPort endpoint, PrintWriter out) {
        out.println("TSO " + (status.address() != null ? status.address() : endpoint) + ": " + status.role().label()
                + (status.healthy() ? " (healthy)" : " (NOT healthy)"));
        line(out, "HTTP endpoint", endpoint.toString());
        line(out, "version", orUnknown(status.version()));
        if (status.commitMode() != null) {
            line(out, "epoch", Long.toString(status.epoch()));
            line(out, "commit mode", status.commitMode());
            line(out, "conflict level", orUnknown(status.conflictLevel()));
            line(out, "low watermark", Long.toString(status.lowWatermark()));
            line(out, "conflict-map fill", String.format(Locale.ROOT, "%.2f %%", status.conflictMapFill() * 100));
            line(out, "lease remaining", status.leaseRemainingMs() + " ms");
        } else if (status.activeTso() != null) {
            line(out, "active TSO", status.activeTso());
        }
        line(out, "uptime", duration(status.uptimeMs()));
        line(out, "connections", Long.toString(status.connections()));
        line(out, "last error", status.lastError() == null ? "none"
                : status.lastError() + " (" + duration(status.lastErrorAgeMs()) + " ago)");
        if (status.stopReason() != null) {
            line(out, "stopped because", status.stopReason());
        }
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println(String.format(Locale.ROOT, "  %-18s %s", label, value));
    }

    private static String orUnknown(@Nullable String value) {
        return value != null ? value : "unknown";
    }

    /** E.g. {@code 2d 3h 4m 5s}; leading zero units left out. */
    static String duration(long millis) {
        long seconds = Math.max(0, millis) / 1000;
        long[] amounts = {seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60};
        String[] units = {"d", "h", "m", "s"};
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < amounts.length; i++) {
            if (amounts[i] > 0 || text.length() > 0 || i == amounts.length - 1) {
                text.append(text.length() > 0 ? " " : "").append(amounts[i]).append(units[i]);
            }
        }
        return text.toString();
    }

    /** {@code host:port}; anything else is a usage error naming the option. */
    static final class HostAndPortConverter implements CommandLine.ITypeConverter<HostAndPort> {
        @Override
        public HostAndPort convert(String value) {
            try {
                return HostAndPort.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
