package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 3: one client could hold every connection slot (no limit per source, idle connections kept for
 * five minutes), and under connect/close churn the open descriptors overshot the connection limit. Now slots are
 * counted when connections are accepted, one address gets a bounded share of them and of new connections per second,
 * and at the limit the connection idle longest gives its slot to a newcomer.
 */
@Timeout(120)
class ConnectionSlotsTest {

    @Test
    void oneAddressGetsNoMoreThanItsShareWhileOthersGetIn() throws IOException {
        TidemarkConfig config = TestTso.config("slots_per_address", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS, "4");
        List<TsoTestClient> held = new ArrayList<>();
        try (TsoServer server = TestTso.start(config)) {
            for (int i = 0; i < 4; i++) {
                held.add(TsoTestClient.connectFrom("127.0.0.2", server.port()));
                held.get(i).hello();
            }
            try (TsoTestClient fifth = TsoTestClient.connectFrom("127.0.0.2", server.port());
                 TsoTestClient other = TsoTestClient.connectFrom("127.0.0.3", server.port())) {
                ErrorReply refused = assertInstanceOf(ErrorReply.class, fifth.receive());
                assertEquals(ErrorCode.OVERLOADED, refused.code(), refused.text());
                assertTrue(refused.text().contains("127.0.0.2 has 4 connections open"), refused.text());
                assertTrue(fifth.closedByServer());
                other.hello();
            }
            assertEquals(1, server.metrics().counter(TsoMetrics.ADDRESS_LIMITED).getCount());
        } finally {
            for (TsoTestClient client : held) {
                client.close();
            }
        }
    }

    @Test
    void oneAddressOpensNoMoreConnectionsPerSecondThanItsRate() throws IOException {
        TidemarkConfig config = TestTso.config("connect_rate", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS, "1");
        try (TsoServer server = TestTso.start(config)) {
            int refused = 0;
            for (int i = 0; i < 5; i++) {
                try (TsoTestClient client = TsoTestClient.connectFrom("127.0.0.4", server.port())) {
                    client.send(Hello.current());
                    Message reply = client.receive();
                    if (reply instanceof ErrorReply) {
                        assertEquals(ErrorCode.OVERLOADED, ((ErrorReply) reply).code());
                        assertTrue(((ErrorReply) reply).text().contains("opened 1 connections in the last second"),
                                ((ErrorReply) reply).text());
                        refused++;
                    }
                }
            }
            assertTrue(refused >= 1, "five connections at once from an address allowed one per second");
            try (TsoTestClient other = TsoTestClient.connectFrom("127.0.0.5", server.port())) {
                other.hello();
            }
        }
    }

    @Test
    void atTheLimitTheConnectionIdleLongestGivesItsSlotToANewcomer() throws Exception {
        TidemarkConfig config = TestTso.config("reclaim", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_CONNECTIONS, "3");
        config.set(TidemarkConfig.TSO_RECLAIM_IDLE_MS, "200");
        try (TsoServer server = TestTso.start(config);
             TsoTestClient oldest = TsoTestClient.connected(server.port());
             TsoTestClient second = TsoTestClient.connected(server.port());
             TsoTestClient third = TsoTestClient.connected(server.port())) {
            TimeUnit.MILLISECONDS.sleep(100);
            second.begin();
            third.begin();
            TimeUnit.MILLISECONDS.sleep(300);
            try (TsoTestClient newcomer = TsoTestClient.connect(server.port())) {
                assertInstanceOf(HelloReply.class, newcomer.hello(), "the newcomer got a slot");
                assertTrue(oldest.closedByServer(), "the connection idle longest gave it up");
                second.begin();
                third.begin();
            }
            assertEquals(1, server.metrics().counter(TsoMetrics.RECLAIMED).getCount());
        }
    }

    @Test
    void descriptorsStayWithinTheLimitWhileClientsConnectAndCloseAsFastAsTheyCan() throws Exception {
        int max = 16;
        TidemarkConfig config = TestTso.config("churn", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_CONNECTIONS, Integer.toString(max));
        config.set(TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS, "1000000");
        config.set(TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS, "1000000");
        try (TsoServer server = TestTso.start(config)) {
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger connects = new AtomicInteger();
            ExecutorService churners = Executors.newFixedThreadPool(8);
            for (int t = 0; t < 8; t++) {
                churners.execute(() -> {
                    while (running.get()) {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress("127.0.0.1", server.port()));
                            connects.incrementAndGet();
                        } catch (IOException e) {
                            // Refused or reset: churn on.
                        }
                    }
                });
            }
            int most = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < end) {
                most = Math.max(most, serverSideSockets(server.port()));
            }
            running.set(false);
            churners.shutdown();
            assertTrue(churners.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(connects.get() > 100, "the churn made " + connects.get() + " connections");
            assertTrue(most <= max + 16, "the TSO held " + most + " client sockets open at once; its limit is " + max
                    + ", plus at most 16 being told they are refused");
        }
    }

    /** Sockets of this process accepted on {@code port} and still open (the TSO's side of its connections). */
    private static int serverSideSockets(int port) throws IOException {
        Set<String> inodes = new HashSet<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String localPort = fields[1].substring(fields[1].indexOf(':') + 1);
                boolean listening = fields[3].equals("0A");
                if (!listening && Integer.parseInt(localPort, 16) == port && !fields[9].equals("0")) {
                    inodes.add(fields[9]);
                }
            }
        }
        int open = 0;
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) descriptors::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
                        open++;
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor went away while listing.
                }
            }
        }
        return open;
    }
}
