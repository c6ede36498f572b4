package io.tidemark.client.tso;

import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;

import java.util.concurrent.CompletableFuture;

/**
 * One request to the TSO, from the caller's call until its future completes. The request id is assigned by the
 * connection's event loop when the request is written, and only that thread reads it.
 */
abstract class TsoRequest<T> {

    private final CompletableFuture<T> future = new CompletableFuture<>();
    private final long deadlineNanos;
    private long requestId;

    TsoRequest(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    final CompletableFuture<T> future() {
        return future;
    }

    final boolean isDone() {
        return future.isDone();
    }

    final boolean isOverdue(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    final long requestId() {
        return requestId;
    }

    /** The wire message for this request, sent under {@code id}. */
    final Message toMessage(long id) {
        this.requestId = id;
        return message(id);
    }

    /**
     * Completes the future from the TSO's reply to this request (an ERROR is handled by the connection);
     * {@code answeredBy} is the handshake of the connection the reply came on.
     */
    abstract void complete(Message reply, HelloReply answeredBy);

    /**
     * Whether to send the request again on a fresh connection after the connection it was written to dropped.
     * Each call counts as one use of the allowance.
     */
    boolean resendAfterConnectionLoss() {
        return false;
    }

    final void fail(Throwable cause) {
        future.completeExceptionally(cause);
    }

    final void succeed(T value) {
        future.complete(value);
    }

    protected abstract Message message(long id);

    protected final TsoUnavailableException unexpectedReply(Message reply) {
        return new TsoUnavailableException("the TSO answered " + message(requestId) + " with " + reply);
    }
}
