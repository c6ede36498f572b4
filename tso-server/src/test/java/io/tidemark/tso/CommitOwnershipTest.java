package io.tidemark.tso;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: any socket could COMMIT any start timestamp, and in batched mode make the TSO write commit records for
 * other clients' transactions. A COMMIT must now carry the token the TSO handed out with the start timestamp.
 */
class CommitOwnershipTest {

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void commitOfAnotherClientsTransactionIsRefusedAndTheOwnerIsUnaffected(CommitMode mode) throws IOException {
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(TestTso.config("ownership_" + mode.name(), mode));
             TsoTestClient owner = TsoTestClient.connected(server.port())) {
            long start = owner.begin();

            for (long guess : new long[] {0, 1, TsoTestClient.tokenOf(start) + 1}) {
                try (TsoTestClient intruder = TsoTestClient.connected(server.port())) {
                    intruder.send(intruder.commitRequestWithToken(start, guess, 4242));
                    ErrorReply error = assertInstanceOf(ErrorReply.class, intruder.receive());
                    assertEquals(ErrorCode.NOT_AUTHORIZED, error.code(), error.text());
                    assertTrue(error.text().contains("commit token"), error.text());
                    assertTrue(intruder.closedByServer(), "the intruder's connection is closed");
                }
            }
            assertFalse(cluster.commitTable.lookup(start).isCommitted(),
                    "no commit record was written for the owner's transaction");
            assertEquals(3, server.metrics().counter(TsoMetrics.NOT_AUTHORIZED_COMMITS).getCount());

            // The intruder's write set was not recorded in the conflict map: the owner commits the same cell.
            CommittedReply committed = assertInstanceOf(CommittedReply.class, owner.commit(start, 4242),
                    "the owner commits its transaction as if nothing happened");
            if (mode == CommitMode.BATCHED) {
                assertEquals(committed.commitTimestamp(), cluster.commitTable.lookup(start).commitTimestamp());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void aTransactionSurvivesAReconnectToTheSameTso(CommitMode mode) throws IOException {
        try (TsoServer server = TestTso.start(TestTso.config("reconnect_" + mode.name(), mode))) {
            long start;
            try (TsoTestClient first = TsoTestClient.connected(server.port())) {
                start = first.begin();
            }
            try (TsoTestClient second = TsoTestClient.connected(server.port())) {
                assertInstanceOf(CommittedReply.class, second.commit(start, 77),
                        "the token is valid on any connection of the client");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void tokensOfAnEarlierIncarnationEndInStaleEpochNotInAnError(CommitMode mode) throws IOException {
        TestTso.Cluster cluster = new TestTso.Cluster();
        long oldStart;
        try (TsoServer first = cluster.start(TestTso.config("stale_token_" + mode.name(), mode));
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            oldStart = client.begin();
        }
        try (TsoServer second = cluster.start(TestTso.config("stale_token_" + mode.name(), mode));
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            client.begin();
            assertEquals(io.tidemark.protocol.AbortReason.STALE_EPOCH,
                    assertInstanceOf(io.tidemark.protocol.AbortedReply.class, client.commit(oldStart, 5)).reason());
            InMemoryCommitTable table = cluster.commitTable;
            assertFalse(table.lookup(oldStart).isCommitted());
        }
    }
}
