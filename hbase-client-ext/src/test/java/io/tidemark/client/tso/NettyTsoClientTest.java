package io.tidemark.client.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Protocol;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NettyTsoClientTest {

    private static final long WAIT_SECONDS = 10;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void handshakeValuesAreExposed() throws Exception {
        FakeTso tso = fake(FakeTso.start(CommitMode.BATCHED, Protocol.VERSION, FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        assertEquals(CommitMode.BATCHED, client.incarnation().commitMode());
        assertEquals(ConflictLevel.CELL, client.incarnation().conflictLevel());
        assertEquals(FakeTso.EPOCH, client.incarnation().epoch());
        assertEquals(1, tso.connectionsAccepted());
    }

    @Test
    void concurrentPipelinedBeginsAreRoutedToTheirCallers() throws Exception {
        FakeTso tso = fake(FakeTso.start(FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()).connections(2));
        int threads = 8;
        int perThread = 2000;
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(callers.submit(() -> beginAll(client, perThread)));
            }
            Set<Long> distinct = new HashSet<>();
            for (Future<List<Long>> result : results) {
                distinct.addAll(result.get(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            assertEquals(threads * perThread, distinct.size());
            assertTrue(distinct.stream().allMatch(ts -> ts > FakeTso.EPOCH));
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void concurrentPipelinedCommitsGetTheReplyForTheirOwnTransaction() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> {
            CommitRequest commit = (CommitRequest) request;
            // The commit timestamp encodes the start timestamp, so a misrouted reply is visible.
            return FakeTso.committed(commit.requestId(), commit.startTimestamp(), commit.startTimestamp() + 1);
        }));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));
        List<CompletableFuture<CommitResult>> commits = new ArrayList<>();
        for (long start = 1; start <= 5000; start++) {
            commits.add(client.commit(start, 0, new long[] {start}, new long[] {1}));
        }
        for (int i = 0; i < commits.size(); i++) {
            assertEquals(i + 2, commits.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS).commitTimestamp());
        }
    }

    @Test
    void commitRepliesMapToCommittedOrAbortedWithTheReason() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> {
            CommitRequest commit = (CommitRequest) request;
            return switch ((int) commit.writeSet()[0]) {
                case 1 -> FakeTso.committed(commit.requestId(), commit.startTimestamp(), 9000);
                case 2 -> new AbortedReply(commit.requestId(), commit.startTimestamp(), AbortReason.CONFLICT);
                default -> new AbortedReply(commit.requestId(), commit.startTimestamp(), AbortReason.STALE_EPOCH);
            };
        }));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        CommitResult committed = await(client.commit(4096, 0, new long[] {1}, new long[] {10}));
        CommitResult conflict = await(client.commit(4096, 0, new long[] {2}, new long[] {10}));
        CommitResult stale = await(client.commit(4096, 0, new long[] {3}, new long[] {10}));

        assertTrue(committed.isCommitted());
        assertEquals(9000, committed.commitTimestamp());
        assertFalse(conflict.isCommitted());
        assertEquals(AbortReason.CONFLICT, conflict.abortReason());
        assertEquals(AbortReason.STALE_EPOCH, stale.abortReason());
    }

    @Test
    void serverErrorIsSurfacedWithTheServersCodeAndText() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) ->
                new ErrorReply(((BeginRequest) request).requestId(), ErrorCode.INTERNAL, "timestamp table on fire")));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        TsoUnavailableException failure = failureOf(client.begin());

        assertTrue(failure.getMessage().contains("timestamp table on fire"), failure.getMessage());
        assertEquals(ErrorCode.INTERNAL, failure.serverErrorCode());
    }

    @Test
    void errorWithoutRequestIdFailsEveryRequestInFlight() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> fake.requestsReceived() < 3 ? null
                : new ErrorReply(0, ErrorCode.UNAVAILABLE, "lease lost")));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        List<CompletableFuture<BeginResult>> begins = List.of(client.begin(), client.begin(), client.begin());

        for (CompletableFuture<BeginResult> begin : begins) {
            TsoUnavailableException failure = failureOf(begin);
            assertTrue(failure.getMessage().contains("lease lost"), failure.getMessage());
            assertEquals(ErrorCode.UNAVAILABLE, failure.serverErrorCode());
        }
    }

    @Test
    void requestTimesOutWhenTheTsoDoesNotAnswer() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> null));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address())
                .requestTimeout(Duration.ofMillis(200)));

        TsoUnavailableException failure = failureOf(client.begin());

        assertTrue(failure.getMessage().contains("no reply from the TSO at " + tso.address() + " within 200 ms"),
                failure.getMessage());
    }

    @Test
    void droppedConnectionFailsTheCommitInFlightWithoutResendingItAndTheNextRequestReconnects() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) ->
                request instanceof CommitRequest ? null : FakeTso.committingEverything(request, fake, connection)));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));
        CompletableFuture<CommitResult> commit = client.commit(4096, 0, new long[] {1}, new long[] {1});
        waitUntil(() -> tso.commitsReceived() == 1);

        tso.dropConnections();

        TsoUnavailableException failure = failureOf(commit);
        assertTrue(failure.getMessage().contains("lost"), failure.getMessage());
        assertTrue(await(client.begin()).startTimestamp() > FakeTso.EPOCH);
        assertEquals(2, tso.connectionsAccepted());
        assertEquals(1, tso.commitsReceived());
    }

    @Test
    void beginInFlightWhenTheConnectionDropsIsAnsweredOnAFreshConnection() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) ->
                connection == 1 ? null : FakeTso.committingEverything(request, fake, connection)));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));
        CompletableFuture<BeginResult> begin = client.begin();
        waitUntil(() -> tso.requestsReceived() == 1);

        tso.dropConnections();

        assertTrue(await(begin).startTimestamp() > FakeTso.EPOCH);
        assertEquals(2, tso.connectionsAccepted());
    }

    @Test
    void unreachableTsoIsRetriedUntilTheRequestTimeoutThenFailsClearly() throws Exception {
        HostAndPort closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = new HostAndPort("127.0.0.1", socket.getLocalPort());
        }
        NettyTsoClient client = client(NettyTsoClient.builder().address(closedPort)
                .requestTimeout(Duration.ofMillis(300)).retryBackoff(Duration.ofMillis(10)));

        TsoUnavailableException failure = failureOf(client.begin());
        TsoUnavailableException handshakeFailure = assertThrows(TsoUnavailableException.class, client::incarnation);

        assertMessage("could not reach the TSO at " + closedPort + " within 300 ms", failure);
        assertMessage("attempts; last: ", failure);
        assertMessage("could not reach the TSO at " + closedPort, handshakeFailure);
    }

    /** A request waits through a failover: the first TSO is gone and the next one answers only later. */
    @Test
    void beginWaitsForATsoThatComesUpWithinItsTimeout() throws Exception {
        HostAndPort address;
        FakeTso late;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            address = new HostAndPort("127.0.0.1", socket.getLocalPort());
        }
        NettyTsoClient client = client(NettyTsoClient.builder().address(address)
                .requestTimeout(Duration.ofSeconds(WAIT_SECONDS)).retryBackoff(Duration.ofMillis(20)));
        CompletableFuture<BeginResult> begin = client.begin();
        Thread.sleep(200);
        late = fake(FakeTso.startOn(address.port(), FakeTso::committingEverything));
        assertTrue(await(begin).startTimestamp() > FakeTso.EPOCH);
        assertTrue(late.connectionsAccepted() >= 1);
    }

    /** Issue 9: a transaction must follow the TSO incarnation that answered its BEGIN, not a later connection's. */
    @Test
    void beginCarriesTheIncarnationOfTheConnectionThatAnsweredIt() throws Exception {
        long laterEpoch = 99 * Timestamps.TSO_STEP;
        FakeTso tso = fake(FakeTso.start(connection -> connection == 1
                        ? FakeTso.hello(Protocol.VERSION, CommitMode.LOW_LATENCY, ConflictLevel.CELL, FakeTso.EPOCH)
                        : FakeTso.hello(Protocol.VERSION, CommitMode.BATCHED, ConflictLevel.ROW, laterEpoch),
                FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        BeginResult first = await(client.begin());
        tso.dropConnections();
        waitUntil(() -> {
            try {
                return client.incarnation().epoch() == laterEpoch;
            } catch (TsoUnavailableException reconnecting) {
                return false;
            }
        });

        assertEquals(CommitMode.LOW_LATENCY, first.incarnation().commitMode());
        assertEquals(ConflictLevel.CELL, first.incarnation().conflictLevel());
        assertEquals(FakeTso.EPOCH, first.incarnation().epoch());
        BeginResult second = await(client.begin());
        assertEquals(CommitMode.BATCHED, second.incarnation().commitMode());
        assertEquals(laterEpoch, second.incarnation().epoch());
    }

    @Test
    void peerThatNeverAnswersTheHandshakeFailsRequestsAndHandshakesInTime() throws Exception {
        // The kernel completes TCP handshakes on a listening socket that nobody reads: a TSO that hangs.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            HostAndPort address = new HostAndPort("127.0.0.1", silent.getLocalPort());
            NettyTsoClient client = client(NettyTsoClient.builder().address(address)
                    .requestTimeout(Duration.ofMillis(200)).retryBackoff(Duration.ofMillis(10)));

            TsoUnavailableException requestFailure = failureOf(client.begin());
            TsoUnavailableException handshakeFailure = assertThrows(TsoUnavailableException.class,
                    client::incarnation);

            assertMessage("the TSO at " + address + " within 200 ms", requestFailure);
            assertMessage("the TSO at " + address + " within 200 ms", handshakeFailure);
        }
    }

    @Test
    void replyOfTheWrongKindFailsTheRequest() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) ->
                FakeTso.committed(((BeginRequest) request).requestId(), 4096, 8192)));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        assertMessage("answered Begin", failureOf(client.begin()));
    }

    @Test
    void tsoSpeakingAnotherProtocolVersionIsRefused() throws Exception {
        FakeTso tso = fake(FakeTso.start(CommitMode.LOW_LATENCY, (short) (Protocol.VERSION + 1),
                FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        TsoUnavailableException failure = assertThrows(TsoUnavailableException.class, client::incarnation);

        assertTrue(failure.getMessage().contains("protocol version " + (Protocol.VERSION + 1)), failure.getMessage());
    }

    /** Issue 11: a COMMIT must carry the token its BEGIN was handed, or the TSO refuses it. */
    @Test
    void commitCarriesTheTokenOfItsBegin() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> {
            if (request instanceof CommitRequest commit) {
                return commit.commitToken() == (commit.startTimestamp() ^ FakeTso.TOKEN_MASK)
                        ? FakeTso.committed(commit.requestId(), commit.startTimestamp(), fake.nextTimestamp())
                        : new ErrorReply(commit.requestId(), ErrorCode.NOT_AUTHORIZED, "wrong token");
            }
            return FakeTso.committingEverything(request, fake, connection);
        }));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        BeginResult begun = await(client.begin());
        assertEquals(begun.startTimestamp() ^ FakeTso.TOKEN_MASK, begun.commitToken());
        assertTrue(await(client.commit(begun.startTimestamp(), begun.commitToken(), new long[] {1},
                new long[] {1})).isCommitted());
    }

    /**
     * The client closes a connection idle for half the TSO's idle timeout, so that the TSO never closes one under a
     * request on its way; the next request connects again.
     */
    @Test
    void anIdleConnectionIsClosedByTheClientBeforeTheTsoWould() throws Exception {
        HelloReply hello = new HelloReply(Protocol.VERSION, CommitMode.LOW_LATENCY, ConflictLevel.CELL,
                FakeTso.EPOCH, FakeTso.MAX_WRITE_SET, 400);
        FakeTso tso = fake(FakeTso.start(connection -> hello, FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        await(client.begin());
        assertEquals(1, tso.openConnections());
        waitUntil(() -> tso.openConnections() == 0);
        await(client.begin());
        assertEquals(2, tso.connectionsAccepted());
    }

    /** Issue 11: a plaintext client of a TLS-only TSO is told so at once, with the setting to change. */
    @Test
    void aTsoRequiringTlsFailsTheRequestAtOnceNamingTheSetting() throws Exception {
        FakeTso tso = fake(FakeTso.refusingHello(new ErrorReply(0, ErrorCode.TLS_REQUIRED, "this TSO requires TLS")));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address())
                .requestTimeout(Duration.ofSeconds(60)));

        TsoUnavailableException failure = failureOf(client.begin());

        assertMessage("requires TLS", failure);
        assertMessage(TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=true", failure);
        assertEquals(1, tso.connectionsAccepted(), "a configuration error is not retried");
    }

    @Test
    void closeFailsPendingRequestsAndIsIdempotent() throws Exception {
        FakeTso tso = fake(FakeTso.start((request, fake, connection) -> null));
        NettyTsoClient client = NettyTsoClient.builder().address(tso.address()).build();
        CompletableFuture<BeginResult> pending = client.begin();
        waitUntil(() -> tso.requestsReceived() == 1);

        client.close();
        client.close();

        assertTrue(failureOf(pending).getMessage().contains("closed"));
        assertTrue(failureOf(client.begin()).getMessage().contains("closed"));
        assertThrows(TsoUnavailableException.class, client::incarnation);
    }

    @Test
    void createReadsTheClientKeysOfTheConfiguration() throws Exception {
        FakeTso tso = fake(FakeTso.start(FakeTso::committingEverything));
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, tso.address().toString());
        config.set(TidemarkConfig.CLIENT_TSO_CONNECTIONS, "3");
        NettyTsoClient client = client(NettyTsoClient.create(config, new Configuration(false)));

        for (int i = 0; i < 3; i++) {
            await(client.begin());
        }

        assertEquals("the TSO at " + tso.address(), client.describeTarget());
        assertEquals(3, tso.connectionsAccepted());
    }

    @Test
    void badConfigurationIsRejectedNamingTheKey() {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.CLIENT_TSO_CONNECTIONS, "0");

        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> NettyTsoClient.create(config, new Configuration(false)));

        assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_TSO_CONNECTIONS.key()), e.getMessage());
    }

    @Test
    void badBuilderSettingsAreRejectedWithClearMessages() {
        NettyTsoClient.Builder builder = NettyTsoClient.builder();

        assertMessage("where is the TSO?", assertThrows(IllegalArgumentException.class, builder::build));
        assertMessage("connections must be a whole number from 1 to 64 (as tidemark.client.tso.connections), was 0",
                assertThrows(IllegalArgumentException.class, () -> builder.connections(0)));
        assertMessage("request timeout in ms must be a whole number from 1 to 2^31-1",
                assertThrows(IllegalArgumentException.class, () -> builder.requestTimeout(Duration.ZERO)));
        assertMessage("retry backoff in ms must be a whole number from 0 to",
                assertThrows(IllegalArgumentException.class, () -> builder.retryBackoff(Duration.ofMillis(-1))));
    }

    @Test
    void commitRejectsBadArguments() throws Exception {
        FakeTso tso = fake(FakeTso.start(FakeTso::committingEverything));
        NettyTsoClient client = client(NettyTsoClient.builder().address(tso.address()));

        assertThrows(IllegalArgumentException.class, () -> client.commit(0, 0, new long[0], new long[0]));
        assertThrows(IllegalArgumentException.class, () -> client.commit(4096, 0, null, new long[0]));
        assertEquals(0, tso.requestsReceived());
    }

    private static List<Long> beginAll(NettyTsoClient client, int count) throws Exception {
        List<CompletableFuture<BeginResult>> futures = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            futures.add(client.begin());
        }
        List<Long> timestamps = new ArrayList<>(count);
        for (CompletableFuture<BeginResult> future : futures) {
            timestamps.add(future.get(WAIT_SECONDS, TimeUnit.SECONDS).startTimestamp());
        }
        return timestamps;
    }

    private FakeTso fake(FakeTso tso) {
        toClose.add(tso);
        return tso;
    }

    private NettyTsoClient client(NettyTsoClient.Builder builder) {
        return client(builder.build());
    }

    private NettyTsoClient client(NettyTsoClient client) {
        toClose.add(client);
        return client;
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static TsoUnavailableException failureOf(CompletableFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> future.get(WAIT_SECONDS, TimeUnit.SECONDS));
        return assertInstanceOf(TsoUnavailableException.class, e.getCause());
    }

    private static void assertMessage(String expectedPart, Exception e) {
        assertTrue(e.getMessage().contains(expectedPart), e.getMessage());
    }

    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not met within " + WAIT_SECONDS + " s");
            Thread.sleep(5);
        }
    }
}
