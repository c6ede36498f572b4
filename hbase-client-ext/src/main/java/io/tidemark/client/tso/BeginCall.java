package io.tidemark.client.tso;

import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;

/** A BEGIN: asks for a start timestamp. */
final class BeginCall extends TsoRequest<BeginResult> {

    private boolean resent;

    BeginCall(long deadlineNanos) {
        super(deadlineNanos);
    }

    @Override
    protected Message message(long id) {
        return new BeginRequest(id);
    }

    @Override
    void complete(Message reply, HelloReply answeredBy) {
        if (reply instanceof BeginReply) {
            BeginReply begun = (BeginReply) reply;
            succeed(new BeginResult(begun.startTimestamp(), begun.commitToken(), TsoIncarnation.of(answeredBy)));
        } else {
            fail(unexpectedReply(reply));
        }
    }

    /** A BEGIN lost with its connection at most wasted a timestamp, so asking once more cannot harm anyone. */
    @Override
    boolean resendAfterConnectionLoss() {
        if (resent) {
            return false;
        }
        resent = true;
        return true;
    }
}
