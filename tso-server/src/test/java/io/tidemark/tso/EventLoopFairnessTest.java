package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 6: all connections share the TSO's one event loop, which read up to 16 times 64 KiB from one
 * connection before looking at the next, so a BEGIN flood from a few connections delayed every other client by tens of
 * milliseconds. Now each connection gets a turn of a few dozen requests at a time, round-robin, and at most its work
 * per second. Timestamps come from one counter, so the order in which the TSO served requests is visible in their
 * start timestamps.
 */
@Timeout(120)
class EventLoopFairnessTest {

    private static final int FLOOD = 20_000;
    private static final int BLOCKER_IDS = 2_000_000;

    @Test
    void floodingConnectionsTakeTurnsAndAQuietOneIsServedWithinATurn() throws Exception {
        TidemarkConfig config = TestTso.config("fair_turns", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_WRITE_SET, Integer.toString(BLOCKER_IDS));
        config.set(TidemarkConfig.TSO_MAX_FRAME_BYTES, Integer.toString(40 << 20));
        try (TsoServer server = TestTso.start(config);
             TsoTestClient blocker = TsoTestClient.connected(server.port());
             TsoTestClient first = TsoTestClient.connected(server.port());
             TsoTestClient second = TsoTestClient.connected(server.port());
             TsoTestClient quiet = TsoTestClient.connected(server.port())) {
            // Keep the event loop busy with one huge commit while both floods and the quiet BEGIN arrive, so that
            // all of them wait together when it is done.
            long blocking = blocker.begin();
            byte[] huge = TsoTestClient.frame(new CommitRequest(1, blocking, TsoTestClient.tokenOf(blocking),
                    LongStream.rangeClosed(1, BLOCKER_IDS).toArray(), new long[] {7}));
            blocker.sendRaw(Arrays.copyOf(huge, huge.length - 1));
            awaitBuffered(server, huge.length - 8);
            blocker.sendRaw(new byte[] {huge[huge.length - 1]});
            TimeUnit.MILLISECONDS.sleep(20);

            CompletableFuture<List<Long>> firstFlood = CompletableFuture.supplyAsync(() -> flood(first));
            CompletableFuture<List<Long>> secondFlood = CompletableFuture.supplyAsync(() -> flood(second));
            TimeUnit.MILLISECONDS.sleep(20);
            long quietStart = quiet.begin();

            TreeMap<Long, Integer> served = new TreeMap<>();
            firstFlood.get().forEach(start -> served.put(start, 1));
            secondFlood.get().forEach(start -> served.put(start, 2));
            assertEquals(2 * FLOOD, served.size());
            int switches = 0;
            Integer previous = null;
            for (int connection : served.values()) {
                if (previous != null && previous != connection) {
                    switches++;
                }
                previous = connection;
            }
            assertTrue(switches >= 100, "the two floods were served in " + (switches + 1) + " runs only");
            long floodBeforeQuiet = served.headMap(quietStart).size();
            assertTrue(floodBeforeQuiet < 1000, floodBeforeQuiet + " flood BEGINs were served before the quiet one");
            assertInstanceOf(CommittedReply.class, blocker.receive());
        }
    }

    @Test
    void aConnectionBeyondItsWorkPerSecondIsServedAtThatRateAndOthersAreNot() throws IOException {
        TidemarkConfig config = TestTso.config("work_budget", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_IDS_PER_SECOND, "1000");
        try (TsoServer server = TestTso.start(config);
             TsoTestClient greedy = TsoTestClient.connected(server.port());
             TsoTestClient other = TsoTestClient.connected(server.port())) {
            long started = System.nanoTime();
            greedy.sendRaw(begins(3000));
            for (int i = 0; i < 50; i++) {
                assertInstanceOf(CommittedReply.class, other.commit(other.begin(), 10 + i),
                        "another connection is served meanwhile");
            }
            for (int i = 0; i < 3000; i++) {
                assertInstanceOf(BeginReply.class, greedy.receive(), "nothing is refused");
            }
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            // 3000 ids at 1000 per second, of which a tenth of a second's worth at once: at least 2.9 s.
            assertTrue(tookMs >= 2500, "3000 BEGINs at 1000 ids per second took only " + tookMs + " ms");
            assertTrue(server.metrics().counter(TsoMetrics.THROTTLED).getCount() >= 1);
        }
    }

    private static List<Long> flood(TsoTestClient client) {
        try {
            client.sendRaw(begins(FLOOD));
            List<Long> starts = new ArrayList<>(FLOOD);
            for (int i = 0; i < FLOOD; i++) {
                starts.add(assertInstanceOf(BeginReply.class, client.receive()).startTimestamp());
            }
            return starts;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] begins(int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(TsoTestClient.frame(new BeginRequest(1_000_000 + i)));
        }
        return out.toByteArray();
    }

    /** Waits until the TSO holds at least {@code bytes} of a partial frame. */
    private static void awaitBuffered(TsoServer server, long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((Long) server.metrics().getGauges().get(TsoMetrics.BUFFERED_FRAME_BYTES).getValue() < bytes) {
            assertTrue(System.nanoTime() < deadline, "the TSO did not receive the huge frame");
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
