package io.tidemark.tso.monitoring;

import com.codahale.metrics.MetricRegistry;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.dropwizard.samplebuilder.CustomMappingSampleBuilder;
import io.prometheus.client.dropwizard.samplebuilder.MapperConfig;
import io.prometheus.client.exporter.common.TextFormat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The TSO's HTTP endpoint for operators (docs/monitoring.md):
 * <ul>
 *   <li>{@value #METRICS_PATH}: every metric of the TSO's registry in Prometheus' text format, converted by the
 *       Prometheus client's Dropwizard bridge (names: dots and dashes become underscores; the abort counters become
 *       one metric labelled by reason);</li>
 *   <li>{@value #HEALTH_PATH}: the {@link TsoStatus} as JSON, 200 when the TSO serves or stands by ready to take
 *       over, 503 while it starts or once it stopped (a liveness check for a supervisor);</li>
 *   <li>{@value #ACTIVE_PATH}: the same body, 200 only while it serves (for a load balancer in front of the TSOs).</li>
 * </ul>
 * Served by the JDK's own HTTP server on one daemon thread: scrapes are rare, and the handlers only read volatile
 * state, so nothing here touches the event loop. (The Prometheus client's own HTTP server would add routes of its
 * own, among them a health route that says healthy whatever the TSO's state.)
 */
public final class TsoHttpEndpoint implements AutoCloseable {

    public static final String METRICS_PATH = "/metrics";
    public static final String HEALTH_PATH = "/health";
    public static final String ACTIVE_PATH = "/health/active";

    private static final String JSON = "application/json; charset=utf-8";
    /** {@code tso.aborts.<reason>} becomes one Prometheus metric with a label: {@code tso_aborts{reason="..."}}. */
    private static final MapperConfig ABORTS_BY_REASON = new MapperConfig("tso.aborts.*", "tso_aborts",
            Map.of("reason", "${0}"));
    private static final int BACKLOG = 16;

    private final HttpServer server;
    private final ExecutorService thread;

    private TsoHttpEndpoint(HttpServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * Binds {@code host:port} (0: a free port) and serves {@code metrics} and {@code status}.
     *
     * @throws IOException when the address cannot be bound (names it)
     */
    public static TsoHttpEndpoint start(String host, int port, MetricRegistry metrics, Supplier<TsoStatus> status)
            throws IOException {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), BACKLOG);
        } catch (IOException e) {
            throw new IOException("could not bind the TSO's HTTP endpoint to " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
        CollectorRegistry prometheus = new CollectorRegistry();
        prometheus.register(new DropwizardExports(metrics, new CustomMappingSampleBuilder(List.of(ABORTS_BY_REASON))));
        server.createContext(METRICS_PATH, exactly(METRICS_PATH, exchange -> {
            StringWriter text = new StringWriter();
            TextFormat.write004(text, prometheus.metricFamilySamples());
            respond(exchange, 200, TextFormat.CONTENT_TYPE_004, text.toString());
        }));
        server.createContext(HEALTH_PATH, exactly(HEALTH_PATH, exchange -> {
            TsoStatus now = status.get();
            respond(exchange, now.healthy() ? 200 : 503, JSON, now.toJson());
        }));
        server.createContext(ACTIVE_PATH, exactly(ACTIVE_PATH, exchange -> {
            TsoStatus now = status.get();
            respond(exchange, now.role() == TsoRole.ACTIVE ? 200 : 503, JSON, now.toJson());
        }));
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "tidemark-tso-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(thread);
        server.start();
        return new TsoHttpEndpoint(server, thread);
    }

    /** The bound address (with the ephemeral port when 0 was asked for). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }

    /** Answers GET (and HEAD) of exactly {@code path}; anything else under it is 404, other methods 405. */
    private static HttpHandler exactly(String path, HttpHandler handler) {
        return exchange -> {
            try {
                String method = exchange.getRequestMethod();
                if (!exchange.getRequestURI().getPath().equals(path)) {
                    respond(exchange, 404, "text/plain; charset=utf-8", "not found\n");
                } else if (!method.equals("GET") && !method.equals("HEAD")) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    respond(exchange, 405, "text/plain; charset=utf-8", "use GET\n");
                } else {
                    handler.handle(exchange);
                }
            } finally {
                exchange.close();
            }
        };
    }

    private static void respond(HttpExchange exchange, int code, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
