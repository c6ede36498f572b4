package io.tidemark.client.tso;

import io.tidemark.protocol.CommitMode;

import java.io.Closeable;
import java.util.concurrent.CompletableFuture;

/**
 * Asynchronous access to the TSO. Implementations multiplex every caller over a few pipelined connections and are
 * thread-safe.
 *
 * <p>Failures complete the returned future exceptionally with {@link TsoUnavailableException}: the TSO could not be
 * reached, did not answer in time, or the connection dropped with the request in flight. For {@link #commit} that
 * means the outcome is unknown: the caller must find it out through the commit table.
 */
public interface TsoClient extends Closeable {

    /** A start timestamp, strictly greater than every timestamp this TSO handed out before. */
    CompletableFuture<Long> begin();

    /** Conflict detection (and, in batched mode, the durable commit record) for one transaction. */
    CompletableFuture<CommitResult> commit(long startTimestamp, long[] writeSet, long[] tableIds);

    /** The commit mode announced by the TSO in its handshake (connects if not yet connected). */
    CommitMode commitMode() throws TsoUnavailableException;

    /** The epoch announced by the TSO in its last handshake. */
    long epoch() throws TsoUnavailableException;

    @Override
    void close();
}
