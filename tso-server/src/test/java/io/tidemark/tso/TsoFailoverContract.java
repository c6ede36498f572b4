package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.Message;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.timestamp.TimestampStorage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9: at most one TSO of a cluster serves; the others stand by, and a deposed TSO stops for good. Run in memory
 * ({@link TsoFailoverTest}) and on HBase and ZooKeeper ({@code TsoFailoverOnHBaseTest} in integration-tests).
 */
abstract class TsoFailoverContract {

    /** The shared parts the TSOs configured by {@code config} run on; each call a cluster of its own. */
    protected abstract TsoCluster cluster(TidemarkConfig config) throws Exception;


    private static final long WAIT_SECONDS = 60;

    /**
     * The lost update of issue 9: R begins on a second TSO of the same tables and reads x; W begins, writes and
     * commits on the first; R writes x and commits on the second, which never saw W. Now the second TSO is a standby
     * that hands out nothing (and claims no timestamps), so R cannot even begin there.
     */
    @Test
    void secondTsoOnTheSameTablesStandsBySoTheLostUpdateCannotHappen() throws Exception {
        TidemarkConfig config = TestTso.config("ha_two", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        try (TsoServer first = cluster.start(config)) {
            TimestampStorage storage = cluster.timestampStorage();
            long boundBefore = storage.readBound();
            RecordingListener secondEvents = new RecordingListener();
            try (TsoServer second = cluster.builder(config).listener(secondEvents).build()) {
                second.startCompeting();
                TsoLeaseNode holder = secondEvents.standingBy.get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertEquals(first.advertisedAddress().toString(), holder.address().toString());

                ErrorReply refusal;
                try (TsoTestClient r = TsoTestClient.connect(second.port())) {
                    r.send(Hello.current());
                    refusal = assertInstanceOf(ErrorReply.class, r.receive(), "R cannot begin on the standby");
                    assertTrue(r.closedByServer());
                }
                assertEquals(ErrorCode.NOT_ACTIVE, refusal.code());
                assertTrue(refusal.text().contains(first.advertisedAddress().toString()), refusal.text());

                try (TsoTestClient w = TsoTestClient.connected(first.port())) {
                    long start = w.begin();
                    assertInstanceOf(CommittedReply.class, w.commit(start, 42), "W commits on the active TSO");
                }
                assertEquals(boundBefore, storage.readBound(), "the standby claimed no timestamps");
                assertFalse(second.isActive());
            }
        }
    }

    @Test
    void tsoStartedOnABusyPortFailsWithoutFencingTheRunningOne() throws Exception {
        TidemarkConfig config = TestTso.config("ha_port", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        try (TsoServer running = cluster.start(config)) {
            TimestampStorage storage = cluster.timestampStorage();
            long boundBefore = storage.readBound();
            TidemarkConfig samePort = TestTso.config("ha_port", CommitMode.LOW_LATENCY);
            samePort.set(TidemarkConfig.TSO_PORT, Integer.toString(running.port()));
            try (TsoServer intruder = cluster.builder(samePort).build()) {
                IOException e = assertThrows(IOException.class, intruder::startCompeting);
                assertTrue(e.getMessage().contains("could not bind"), e.getMessage());
            }
            assertEquals(boundBefore, storage.readBound(), "the failed TSO touched no timestamp");
            // Well past the running TSO's current block (100 timestamps): it still owns its bound.
            try (TsoTestClient client = TsoTestClient.connected(running.port())) {
                long previous = 0;
                for (int i = 0; i < 250; i++) {
                    long ts = client.begin();
                    assertTrue(ts > previous);
                    previous = ts;
                }
                assertInstanceOf(CommittedReply.class, client.commit(previous, 1));
            }
            assertTrue(running.isActive());
        }
    }

    /** Issue 9: a TSO fenced by another one used to stay alive answering ERROR UNAVAILABLE forever. */
    @Test
    void tsoWhoseLeaseWasTakenStopsReplyingClosesConnectionsAndSignals() throws Exception {
        TidemarkConfig config = TestTso.config("ha_deposed", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        RecordingListener events = new RecordingListener();
        try (TsoServer server = cluster.builder(config).listener(events).build()) {
            server.start();
            try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                long start = client.begin();
                cluster.takeLease("successor");
                String reason = server.stopped().get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertTrue(reason.contains("taken over by TSO successor"), reason);
                assertEquals(reason, events.stopped.get(WAIT_SECONDS, TimeUnit.SECONDS));
                assertFalse(server.isActive());
                client.send(client.commitRequest(start, 7));
                assertTrue(client.closedByServer(), "no reply after the lease was taken: the connection is closed");
            }
            assertNoLongerAnswers(server.port());
        }
    }

    @Test
    void tsoThatLostItsTimestampBoundStopsServing() throws Exception {
        TidemarkConfig config = TestTso.config("ha_bound", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        try (TsoServer server = cluster.start(config)) {
            TimestampStorage intruder = cluster.timestampStorage();
            long bound = intruder.readBound();
            intruder.advanceBound(bound, bound + 1000 * Timestamps.TSO_STEP, bound);
            try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                boolean closed = false;
                for (int i = 0; i < 200 && !closed; i++) {
                    client.send(new BeginRequest(i + 1));
                    try {
                        Message reply = client.receive();
                        assertFalse(reply instanceof ErrorReply && ((ErrorReply) reply).code() != ErrorCode.UNAVAILABLE,
                                "unexpected " + reply);
                    } catch (IOException connectionClosed) {
                        closed = true;
                    }
                }
                assertTrue(closed, "the TSO kept serving after losing its timestamp bound");
            }
            String reason = server.stopped().get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertTrue(reason.contains("timestamp bound"), reason);
            assertNoLongerAnswers(server.port());
        }
    }

    @Test
    void standbyTakesOverWhenTheActiveTsoStopsAndRefusesItsTransactions() throws Exception {
        TidemarkConfig config = TestTso.config("ha_takeover", CommitMode.LOW_LATENCY);
        TsoCluster cluster = cluster(config);
        TsoServer first = cluster.start(config);
        long oldStart;
        try (TsoTestClient client = TsoTestClient.connected(first.port())) {
            oldStart = client.begin();
        }
        RecordingListener events = new RecordingListener();
        try (TsoServer second = cluster.builder(config).listener(events).build()) {
            second.startCompeting();
            events.standingBy.get(WAIT_SECONDS, TimeUnit.SECONDS);
            first.close(); // gives the lease up
            long epoch = second.awaitActive(Duration.ofSeconds(WAIT_SECONDS));
            assertTrue(epoch >= oldStart, "the new epoch covers every timestamp of the old TSO");
            try (TsoTestClient client = TsoTestClient.connect(second.port())) {
                assertEquals(epoch, client.hello().epoch());
            }
            try (TsoTestClient client = TsoTestClient.connected(second.port())) {
                AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.commit(oldStart, 9));
                assertEquals(AbortReason.STALE_EPOCH, aborted.reason());
                assertTrue(client.begin() > epoch);
            }
        }
    }

    private static void assertNoLongerAnswers(int port) throws IOException {
        TsoTestClient client;
        try {
            client = TsoTestClient.connect(port);
        } catch (ConnectException refused) {
            return;
        }
        try (TsoTestClient c = client) {
            c.send(Hello.current());
            assertTrue(c.closedByServer(), "a stopped TSO answers nothing");
        } catch (IOException closed) {
            // Closed while sending: no answer either.
        }
    }
}
