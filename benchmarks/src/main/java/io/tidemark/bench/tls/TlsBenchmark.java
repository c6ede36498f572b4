package io.tidemark.bench.tls;

import io.tidemark.bench.attack.InMemoryTso;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.RunStorage;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.DevelopmentCertificates;
import io.tidemark.tso.TsoServer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plaintext, TLS and mutual TLS on the TSO port, measured the same way: a TSO (in this process, in-memory storage) per
 * mode with certificates made at run time; then the handshake of fresh client connections (connect, TLS, HELLO; one at
 * a time), the latency of BEGIN+COMMIT pairs of one thread in a closed loop, and the pairs per second of several
 * threads sharing one client.
 */
public final class TlsBenchmark {

    private static final long[] TABLES = {1};

    private final int handshakes;
    private final Duration measure;
    private final int threads;
    private final Path output;
    private final PrintStream out;

    public TlsBenchmark(int handshakes, Duration measure, int threads, Path output, PrintStream out) {
        if (handshakes < 1 || measure.isNegative() || measure.isZero() || threads < 1) {
            throw new IllegalArgumentException("handshakes, measuring time and threads must be positive");
        }
        this.handshakes = handshakes;
        this.measure = measure;
        this.threads = threads;
        this.output = output;
        this.out = out;
    }

    public void run() throws Exception {
        Files.createDirectories(output);
        DevelopmentCertificates ca = DevelopmentCertificates.createAuthority(output.resolve("certificates"),
                "Tidemark benchmark CA");
        DevelopmentCertificates.Identity tso = ca.issue("tso", "CN=tso", "dns:localhost", "ip:127.0.0.1");
        DevelopmentCertificates.Identity app = ca.issue("app", "CN=app");

        Map<String, Map<String, String>> servers = new LinkedHashMap<>();
        Map<String, Map<String, String>> clients = new LinkedHashMap<>();
        servers.put("plaintext", Map.of());
        clients.put("plaintext", Map.of());
        servers.put("TLS", Map.of(TidemarkConfig.TSO_TLS_ENABLED.key(), "true",
                TidemarkConfig.TSO_TLS_CERT.key(), tso.certificateChain().toString(),
                TidemarkConfig.TSO_TLS_KEY.key(), tso.privateKey().toString()));
        clients.put("TLS", Map.of(TidemarkConfig.CLIENT_TSO_TLS_ENABLED.key(), "true",
                TidemarkConfig.CLIENT_TSO_TLS_TRUST.key(), ca.caPem().toString()));
        Map<String, String> mutualServer = new LinkedHashMap<>(servers.get("TLS"));
        mutualServer.put(TidemarkConfig.TSO_TLS_CLIENT_AUTH.key(), "require");
        mutualServer.put(TidemarkConfig.TSO_TLS_TRUST.key(), ca.caPem().toString());
        mutualServer.put(TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS.key(), "CN=app");
        servers.put("mutual TLS", mutualServer);
        Map<String, String> mutualClient = new LinkedHashMap<>(clients.get("TLS"));
        mutualClient.put(TidemarkConfig.CLIENT_TSO_TLS_CERT.key(), app.certificateChain().toString());
        mutualClient.put(TidemarkConfig.CLIENT_TSO_TLS_KEY.key(), app.privateKey().toString());
        clients.put("mutual TLS", mutualClient);

        ResultTable table = new ResultTable("mode", "handshake p50 ms", "handshake p99 ms", "pair p50 ms",
                "pair p99 ms", "pairs/s, 1 thread", "pairs/s, " + threads + " threads");
        for (String mode : servers.keySet()) {
            out.println("Measuring " + mode);
            Map<String, String> serverSettings = new LinkedHashMap<>(servers.get(mode));
            serverSettings.put(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.key(), "1048576");
            try (TsoServer server = InMemoryTso.start(InMemoryTso.config(serverSettings))) {
                TidemarkConfig clientConfig = new TidemarkConfig(new Configuration(false));
                clientConfig.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + server.port());
                clients.get(mode).forEach(clientConfig.hadoopConfiguration()::set);
                // The first handshakes of a mode load and compile its TLS code: not what a running client pays.
                handshakes(clientConfig);
                Histogram handshake = handshakes(clientConfig);
                Row row;
                try (NettyTsoClient client = NettyTsoClient.create(clientConfig, new Configuration(false))) {
                    pairs(client, 1, Duration.ofSeconds(2));
                    row = new Row(pairs(client, 1, measure), pairs(client, threads, measure));
                }
                table.addRow(mode, ms(handshake.getValueAtPercentile(50)), ms(handshake.getValueAtPercentile(99)),
                        ms(row.single.latency.getValueAtPercentile(50)),
                        ms(row.single.latency.getValueAtPercentile(99)), row.single.perSecond,
                        row.parallel.perSecond);
            }
        }
        String notes = "Handshake: " + handshakes + " fresh connections one after the other (after as many"
                + " unmeasured ones), from connect to the HELLO reply (TLS 1.3, EC P-256 certificates; mutual TLS also checks the client's subject)."
                + " Pairs: BEGIN then COMMIT of two random cells, " + measure.toSeconds() + " s per measurement,"
                + " one client connection; the TSO runs in the same process with in-memory storage.\n\n"
                + ReportWriter.environment() + "\n";
        ReportWriter.write(output, "TLS on the TSO port", table, notes, RunStorage.NO_HBASE);
        out.println();
        out.print(table.toText());
        out.println();
        out.print(notes);
        out.println("Results in " + output);
    }

    private Histogram handshakes(TidemarkConfig config) throws IOException {
        Histogram micros = new Histogram(3);
        for (int i = 0; i < handshakes; i++) {
            try (NettyTsoClient client = NettyTsoClient.create(config, new Configuration(false))) {
                long started = System.nanoTime();
                client.incarnation();
                micros.recordValue(Math.max(1, (System.nanoTime() - started) / 1000));
            }
        }
        return micros;
    }

    private record Measurement(Histogram latency, long perSecond) {
    }

    private record Row(Measurement single, Measurement parallel) {
    }

    private static Measurement pairs(NettyTsoClient client, int threads, Duration length) throws Exception {
        Recorder recorder = new Recorder(3);
        AtomicLong done = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> workers = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(() -> {
                try {
                    while (running.get()) {
                        long started = System.nanoTime();
                        BeginResult begun = client.begin().get();
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        client.commit(begun.startTimestamp(), begun.commitToken(),
                                new long[] {random.nextLong(), random.nextLong()}, TABLES).get();
                        recorder.recordValue(Math.max(1, (System.nanoTime() - started) / 1000));
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "tls-bench-" + t);
            workers.add(worker);
            worker.start();
        }
        long started = System.nanoTime();
        Thread.sleep(length.toMillis());
        running.set(false);
        for (Thread worker : workers) {
            worker.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        return new Measurement(recorder.getIntervalHistogram(), Math.round(done.get() / seconds));
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }
}
