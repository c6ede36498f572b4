package io.tidemark.tso;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.writeset.WriteSetIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 5: any client could fence any table, aborting every running transaction that writes it. Fences
 * now come only from the clients {@code tidemark.tso.fence.allowed-clients} names, and only as fences: a table's public
 * fence id in an ordinary write set fences nothing. (Fences by certificate subject, with mutual TLS, are tested by
 * the benchmarks module's attack tests, which can make certificates.)
 */
@Timeout(60)
class FenceAuthorityTest {

    private static final long TABLE = 9001;

    @Test
    void aClientNotAllowedToFenceIsRefusedAndFencesNothing() throws IOException {
        TidemarkConfig config = TestTso.config("fence_refused", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, "none");
        try (TsoServer server = TestTso.start(config);
             TsoTestClient honest = TsoTestClient.connected(server.port());
             TsoTestClient attacker = TsoTestClient.connected(server.port())) {
            long running = honest.begin();
            long fence = attacker.begin();
            attacker.send(attacker.commitRequestWithTables(fence, new long[] {WriteSetIds.fence(TABLE)}, TABLE));
            ErrorReply refused = assertInstanceOf(ErrorReply.class, attacker.receive());
            assertEquals(ErrorCode.NOT_AUTHORIZED, refused.code(), refused.text());
            assertTrue(refused.text().contains(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS.key()), refused.text());
            assertTrue(attacker.closedByServer());
            assertEquals(1, server.metrics().counter(TsoMetrics.NOT_AUTHORIZED_FENCES).getCount());

            assertInstanceOf(CommittedReply.class, honest.exchange(honest.commitRequestWithTables(running,
                    new long[] {1}, TABLE)), "the table was not fenced");
        }
    }

    @Test
    void aTablesFenceIdInAnOrdinaryWriteSetDoesNotFenceIt() throws IOException {
        try (TsoServer server = TestTso.start(TestTso.config("fence_smuggled", CommitMode.LOW_LATENCY));
             TsoTestClient honest = TsoTestClient.connected(server.port());
             TsoTestClient attacker = TsoTestClient.connected(server.port())) {
            long running = honest.begin();
            assertInstanceOf(CommittedReply.class, attacker.exchange(attacker.commitRequestWithTables(
                    attacker.begin(), new long[] {WriteSetIds.fence(TABLE), 5}, 77)));
            assertInstanceOf(CommittedReply.class, attacker.exchange(attacker.commitRequestWithTables(
                    attacker.begin(), new long[] {WriteSetIds.fence(TABLE)}, 77)));

            assertInstanceOf(CommittedReply.class, honest.exchange(honest.commitRequestWithTables(running,
                    new long[] {1}, TABLE)), "the table was not fenced");
        }
    }

    @Test
    void subjectsWithoutClientCertificatesAreRefusedAtStart() {
        TidemarkConfig config = TestTso.config("fence_config", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, "CN=admin,O=Example");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new TestTso.Cluster().builder(config).build());
        assertTrue(e.getMessage().contains(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS.key()), e.getMessage());
    }
}
