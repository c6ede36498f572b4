package io.tidemark.tso;

import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 7: one start timestamp could be committed several times, each time with a new commit timestamp.
 * A transaction commits once; a second COMMIT of it is refused and leaves no trace.
 */
@Timeout(60)
class CommitOnceTest {

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void aSecondCommitOfTheSameStartTimestampIsRefused(CommitMode mode) throws IOException {
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(TestTso.config("commit_once_" + mode.name(), mode));
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long other = client.begin();
            long start = client.begin();
            CommittedReply first = assertInstanceOf(CommittedReply.class, client.commit(start, 11));

            for (long[] writeSet : new long[][] {{11}, {12}, {}}) {
                try (TsoTestClient again = TsoTestClient.connected(server.port())) {
                    again.send(again.commitRequestWithTables(start, writeSet, 7));
                    ErrorReply refused = assertInstanceOf(ErrorReply.class, again.receive());
                    assertEquals(ErrorCode.MALFORMED, refused.code(), refused.text());
                    assertTrue(refused.text().contains("already committed (at " + first.commitTimestamp() + ")"),
                            refused.text());
                    assertTrue(again.closedByServer());
                }
            }
            assertEquals(3, server.metrics().counter(TsoMetrics.DUPLICATE_COMMITS).getCount());
            assertInstanceOf(CommittedReply.class, client.commit(other, 12),
                    "the refused second commit recorded nothing: cell 12 was never written");
            if (mode == CommitMode.BATCHED) {
                assertEquals(first.commitTimestamp(), cluster.commitTable.lookup(start).commitTimestamp());
            }
        }
    }
}
