package io.tidemark.client.tso;

import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;

/** A COMMIT: conflict detection for the transaction that began at {@code startTimestamp}. Never resent. */
final class CommitCall extends TsoRequest<CommitResult> {

    private final long startTimestamp;
    private final long commitToken;
    private final long[] writeSet;
    private final long[] tableIds;

    CommitCall(long deadlineNanos, long startTimestamp, long commitToken, long[] writeSet, long[] tableIds) {
        super(deadlineNanos);
        this.startTimestamp = startTimestamp;
        this.commitToken = commitToken;
        this.writeSet = writeSet;
        this.tableIds = tableIds;
    }

    @Override
    protected Message message(long id) {
        return new CommitRequest(id, startTimestamp, commitToken, writeSet, tableIds);
    }

    @Override
    void complete(Message reply, HelloReply answeredBy) {
        if (reply instanceof CommittedReply && ((CommittedReply) reply).startTimestamp() == startTimestamp) {
            CommittedReply committed = (CommittedReply) reply;
            succeed(CommitResult.committed(committed.commitTimestamp(), committed.certificate(),
                    committed.releaseToken()));
        } else if (reply instanceof AbortedReply && ((AbortedReply) reply).startTimestamp() == startTimestamp) {
            succeed(CommitResult.aborted(((AbortedReply) reply).reason()));
        } else {
            fail(unexpectedReply(reply));
        }
    }
}
