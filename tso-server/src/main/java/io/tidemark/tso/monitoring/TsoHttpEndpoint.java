package io.tidemark.tso.monitoring;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.dropwizard.DropwizardExports;
import io.prometheus.client.dropwizard.samplebuilder.CustomMappingSampleBuilder;
import io.prometheus.client.dropwizard.samplebuilder.MapperConfig;
import io.prometheus.client.exporter.common.TextFormat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * Served by Netty on {@value #THREADS} threads of its own, never the TSO's event loop: the handlers only read volatile
 * state. A connection costs no thread while it sends its request, so a client that sends half a request and holds it
 * (slowloris) blinds nobody: every request must arrive in full within the request timeout of the connection's start
 * or of its previous answer, else the connection is closed; and at {@value #MAX_CONNECTIONS} connections the oldest
 * one is closed for a new one. (The JDK's own HTTP server read each request on a handler thread, so one half-sent
 * request held the endpoint's only thread; the Prometheus client's HTTP server is the JDK's too, and adds a health
 * route of its own that says healthy whatever the TSO's state.)
 */
public final class TsoHttpEndpoint implements AutoCloseable {

    public static final String METRICS_PATH = "/metrics";
    public static final String HEALTH_PATH = "/health";
    public static final String ACTIVE_PATH = "/health/active";

    /** Threads answering requests; a slow client holds none of them. */
    static final int THREADS = 2;
    /** Connections kept open at most; the oldest is closed for a new one beyond it. */
    public static final int MAX_CONNECTIONS = 256;
    /** Largest request line plus headers accepted; a scrape sends a few hundred bytes. */
    private static final int MAX_REQUEST_HEAD_BYTES = 8192;
    /** Largest request body accepted: GET and HEAD have none. */
    private static final int MAX_REQUEST_BODY_BYTES = 1024;
    private static final String JSON = "application/json; charset=utf-8";
    private static final String TEXT = "text/plain; charset=utf-8";
    /** {@code tso.aborts.<reason>} becomes one Prometheus metric with a label: {@code tso_aborts{reason="..."}}. */
    private static final MapperConfig ABORTS_BY_REASON = new MapperConfig("tso.aborts.*", "tso_aborts",
            Map.of("reason", "${0}"));

    private final EventLoopGroup threads;
    private final Channel server;

    private TsoHttpEndpoint(EventLoopGroup threads, Channel server) {
        this.threads = threads;
        this.server = server;
    }

    /**
     * Binds {@code host:port} (0: a free port) and serves {@code metrics} and {@code status}.
     *
     * @param requestTimeoutMs how long a connection may take to send a complete request
     * @param requestTimeouts counts connections closed for not sending one in time
     * @throws IOException when the address cannot be bound (names it)
     */
    public static TsoHttpEndpoint start(String host, int port, MetricRegistry metrics, Supplier<TsoStatus> status,
                                       int requestTimeoutMs, Counter requestTimeouts) throws IOException {
        CollectorRegistry prometheus = new CollectorRegistry();
        prometheus.register(new DropwizardExports(metrics, new CustomMappingSampleBuilder(List.of(ABORTS_BY_REASON))));
        Routes routes = new Routes(prometheus, status);
        OpenConnections open = new OpenConnections(MAX_CONNECTIONS);
        EventLoopGroup threads = new NioEventLoopGroup(THREADS, new DefaultThreadFactory("tidemark-tso-http", true));
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(threads)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        open.add(channel);
                        channel.pipeline()
                                .addLast("deadline", new RequestDeadline(requestTimeoutMs, requestTimeouts))
                                .addLast("codec", new HttpServerCodec(MAX_REQUEST_HEAD_BYTES, MAX_REQUEST_HEAD_BYTES,
                                        MAX_REQUEST_HEAD_BYTES))
                                .addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BODY_BYTES))
                                .addLast("routes", routes);
                    }
                });
        try {
            Channel server = bootstrap.bind(host, port).sync().channel();
            return new TsoHttpEndpoint(threads, server);
        } catch (Exception e) {
            threads.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // Netty rethrows the bind failure (a checked BindException) without declaring it.
            throw new IOException("could not bind the TSO's HTTP endpoint to " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    /** The bound address (with the ephemeral port when 0 was asked for). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        threads.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Answers GET and HEAD of the three paths; other paths 404, other methods 405. Shared by every connection. */
    @io.netty.channel.ChannelHandler.Sharable
    private static final class Routes extends SimpleChannelInboundHandler<FullHttpRequest> {

        private final CollectorRegistry prometheus;
        private final Supplier<TsoStatus> status;

        Routes(CollectorRegistry prometheus, Supplier<TsoStatus> status) {
            this.prometheus = prometheus;
            this.status = status;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
            if (!request.decoderResult().isSuccess()) {
                respond(ctx, request, HttpResponseStatus.BAD_REQUEST, TEXT, "bad request\n", false);
                return;
            }
            String path = new QueryStringDecoder(request.uri()).path();
            boolean known = path.equals(METRICS_PATH) || path.equals(HEALTH_PATH) || path.equals(ACTIVE_PATH);
            HttpMethod method = request.method();
            if (!known) {
                respond(ctx, request, HttpResponseStatus.NOT_FOUND, TEXT, "not found\n", true);
            } else if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
                respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, "use GET\n", true);
            } else if (path.equals(METRICS_PATH)) {
                StringWriter text = new StringWriter();
                TextFormat.write004(text, prometheus.metricFamilySamples());
                respond(ctx, request, HttpResponseStatus.OK, TextFormat.CONTENT_TYPE_004, text.toString(), true);
            } else {
                TsoStatus now = status.get();
                boolean up = path.equals(HEALTH_PATH) ? now.healthy() : now.role() == TsoRole.ACTIVE;
                respond(ctx, request, up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, JSON,
                        now.toJson(), true);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus code,
                                    String contentType, String body, boolean mayKeepAlive) {
            ByteBuf bytes = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
            boolean head = request.method().equals(HttpMethod.HEAD);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, code,
                    head ? Unpooled.EMPTY_BUFFER : bytes);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.readableBytes());
            if (head) {
                bytes.release();
            }
            if (code.equals(HttpResponseStatus.METHOD_NOT_ALLOWED)) {
                response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
            }
            boolean keepAlive = mayKeepAlive && HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            ctx.pipeline().get(RequestDeadline.class).answered(ctx.channel());
            if (keepAlive) {
                ctx.writeAndFlush(response, ctx.voidPromise());
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
