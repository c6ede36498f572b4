package io.tidemark.tso;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32 §3: every COMMITTED carries the TSO's certificate of that commit and the token that releases its record,
 * sealed with the decision key the incarnation recorded in the timestamp table before it answered; a new incarnation
 * seals with a new key.
 */
@Timeout(60)
class CommitCertificatesTest {

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void everyCommitIsSealedWithTheKeyTheIncarnationRecorded(CommitMode mode) throws IOException {
        TestTso.Cluster cluster = new TestTso.Cluster();
        DecisionKey first;
        try (TsoServer server = cluster.start(TestTso.config("certified_" + mode.name(), mode));
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            CommittedReply committed = assertInstanceOf(CommittedReply.class, client.commit(start, 11));
            first = cluster.timestampStorage.decisionKey(server.epoch());
            assertNotNull(first, "recorded before the first COMMIT was answered");
            assertTrue(first.certifiesCommit(committed.certificate(), start, committed.commitTimestamp()));
            assertTrue(first.releases(committed.releaseToken(), start));
            assertFalse(first.certifiesCommit(committed.certificate(), start, committed.commitTimestamp() + 1));
        }
        try (TsoServer server = cluster.start(TestTso.config("certified_again_" + mode.name(), mode));
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            CommittedReply committed = assertInstanceOf(CommittedReply.class, client.commit(start, 12));
            DecisionKey second = cluster.timestampStorage.decisionKey(server.epoch());
            assertNotEquals(first.epoch(), second.epoch());
            assertTrue(second.certifiesCommit(committed.certificate(), start, committed.commitTimestamp()));
            assertFalse(first.certifiesCommit(committed.certificate(), start, committed.commitTimestamp()),
                    "an earlier incarnation's key does not certify a later one's commits");
        }
    }
}
