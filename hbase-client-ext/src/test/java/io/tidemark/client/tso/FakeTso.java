package io.tidemark.client.tso;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tidemark.certificate.DecisionKey;
import io.tidemark.config.HostAndPort;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.protocol.Protocol;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.ConflictLevel;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * A stand-in TSO on a real loopback socket, speaking the real codec. What it answers to BEGIN and COMMIT is up to a
 * {@link Script}; replies to one read batch go out in shuffled order, so clients must match them by request id.
 */
final class FakeTso implements AutoCloseable {

    /** The key this fake seals its commits with. */
    static final DecisionKey KEY = DecisionKey.generate(1, new SecureRandom());

    /** The answer to one request, or null to stay silent. An {@link ErrorReply} is followed by closing the channel. */
    @FunctionalInterface
    interface Script {
        Message answer(Message request, FakeTso tso, int connectionNumber);
    }

    static final long EPOCH = 7 * Timestamps.TSO_STEP;
    static final int MAX_WRITE_SET = 10_000;
    static final int IDLE_TIMEOUT_MS = 300_000;
    /** Tokens are the start timestamp XOR this, so that a test can tell whether the client sent its token back. */
    static final long TOKEN_MASK = 0x5EC0DE5EC0DEL;

    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final ChannelGroup channels = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicLong lastTimestamp = new AtomicLong(EPOCH);
    private final AtomicInteger connectionsAccepted = new AtomicInteger();
    private final AtomicInteger requestsReceived = new AtomicInteger();
    private final AtomicInteger commitsReceived = new AtomicInteger();
    private final IntFunction<? extends Message> hellos;
    private final Script script;
    private final Channel serverChannel;

    private FakeTso(IntFunction<? extends Message> hellos, Script script) {
        this(0, hellos, script);
    }

    private FakeTso(int port, IntFunction<? extends Message> hellos, Script script) {
        this.hellos = hellos;
        this.script = script;
        this.serverChannel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.add(ch);
                        ch.pipeline().addLast(MessageDecoder.frameDecoder(1024 * 1024),
                                MessageDecoder.INSTANCE, MessageEncoder.INSTANCE,
                                new ScriptedSession(connectionsAccepted.incrementAndGet()));
                    }
                })
                .bind("127.0.0.1", port).syncUninterruptibly().channel();
    }

    static FakeTso start(Script script) {
        return start(CommitMode.LOW_LATENCY, Protocol.VERSION, script);
    }

    static FakeTso start(CommitMode mode, short version, Script script) {
        HelloReply hello = hello(version, mode, ConflictLevel.CELL, EPOCH);
        return new FakeTso(connection -> hello, script);
    }

    /** A low-latency TSO on the given loopback port (a TSO that comes up where clients already look). */
    static FakeTso startOn(int port, Script script) {
        HelloReply hello = hello(Protocol.VERSION, CommitMode.LOW_LATENCY, ConflictLevel.CELL, EPOCH);
        return new FakeTso(port, connection -> hello, script);
    }

    /** A HELLO reply with the default limits. */
    static HelloReply hello(short version, CommitMode mode, ConflictLevel level, long epoch) {
        return new HelloReply(version, mode, level, epoch, MAX_WRITE_SET, IDLE_TIMEOUT_MS);
    }

    /** A TSO that answers every HELLO with {@code refusal}, then closes the connection. */
    static FakeTso refusingHello(ErrorReply refusal) {
        return new FakeTso(connection -> refusal, FakeTso::committingEverything);
    }

    /** A TSO whose HELLO reply depends on the connection (numbered from 1), as after a failover to another TSO. */
    static FakeTso start(IntFunction<HelloReply> hellos, Script script) {
        return new FakeTso(hellos, script);
    }

    /** Answers BEGIN with fresh timestamps and commits everything. */
    static Message committingEverything(Message request, FakeTso tso, int connectionNumber) {
        if (request instanceof BeginRequest begin) {
            long start = tso.nextTimestamp();
            return new BeginReply(begin.requestId(), start, start ^ TOKEN_MASK);
        }
        CommitRequest commit = (CommitRequest) request;
        return committed(commit.requestId(), commit.startTimestamp(), tso.nextTimestamp());
    }

    long nextTimestamp() {
        return lastTimestamp.addAndGet(Timestamps.TSO_STEP);
    }

    HostAndPort address() {
        return new HostAndPort("127.0.0.1", ((InetSocketAddress) serverChannel.localAddress()).getPort());
    }

    int connectionsAccepted() {
        return connectionsAccepted.get();
    }

    /** Client connections open now. */
    int openConnections() {
        return channels.size();
    }

    int requestsReceived() {
        return requestsReceived.get();
    }

    int commitsReceived() {
        return commitsReceived.get();
    }

    /** Closes every client connection, as a crashing TSO would. */
    void dropConnections() {
        channels.close().syncUninterruptibly();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        channels.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** One client connection: HELLO first, then scripted answers, written shuffled at the end of each read batch. */
    private final class ScriptedSession extends ChannelInboundHandlerAdapter {

        private final int connectionNumber;
        private final List<Message> pendingReplies = new ArrayList<>();
        private boolean closeAfterReplies;

        ScriptedSession(int connectionNumber) {
            this.connectionNumber = connectionNumber;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Message request = (Message) msg;
            switch (request.type()) {
                case HELLO -> {
                    Message answer = hellos.apply(connectionNumber);
                    ctx.writeAndFlush(answer);
                    if (answer instanceof ErrorReply) {
                        ctx.close();
                    }
                }
                case BEGIN, COMMIT -> {
                    requestsReceived.incrementAndGet();
                    if (request instanceof CommitRequest) {
                        commitsReceived.incrementAndGet();
                    }
                    Message reply = script.answer(request, FakeTso.this, connectionNumber);
                    if (reply != null) {
                        pendingReplies.add(reply);
                        closeAfterReplies |= reply instanceof ErrorReply;
                    }
                }
                default -> throw new AssertionError("a client sent " + request);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            Collections.shuffle(pendingReplies, ThreadLocalRandom.current());
            for (Message reply : pendingReplies) {
                ctx.write(reply);
            }
            pendingReplies.clear();
            ctx.flush();
            if (closeAfterReplies) {
                ctx.close();
            }
        }
    }

    /** A COMMITTED reply sealed as a TSO seals it, with this fake's key. */
    static CommittedReply committed(long requestId, long start, long commit) {
        return new CommittedReply(requestId, start, commit, KEY.commitCertificate(start, commit),
                KEY.releaseToken(start));
    }
}
