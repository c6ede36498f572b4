package io.tidemark.client.tso;

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

    /**
     * A start timestamp, strictly greater than every timestamp handed out before, with the TSO incarnation that
     * handed it out.
     */
    CompletableFuture<BeginResult> begin();

    /**
     * Conflict detection (and, in batched mode, the durable commit record) for one transaction, which this client
     * began: {@code commitToken} is the one its {@link BeginResult} carried.
     */
    CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet, long[] tableIds);

    /**
     * The incarnation a connection currently reaches (connects if not yet connected). Informational only: after a
     * failover the next request may reach another one; a transaction takes its incarnation from its BEGIN.
     */
    TsoIncarnation incarnation() throws TsoUnavailableException;

    /** Where this client looks for the TSO, for messages. */
    String describeTarget();

    @Override
    void close();
}
