package io.tidemark.testing;

import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.client.tso.TsoIncarnation;
import io.tidemark.client.tso.TsoUnavailableException;

import java.util.concurrent.CompletableFuture;

/**
 * A {@link TsoClient} that hands every call to another one: tests subclass it and override what they stage (a lost,
 * late or counted COMMIT reply), passed to {@code TransactionManager.Builder#tsoClient}. Closing closes the delegate.
 */
public class ForwardingTsoClient implements TsoClient {

    private final TsoClient delegate;

    public ForwardingTsoClient(TsoClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<BeginResult> begin() {
        return delegate.begin();
    }

    @Override
    public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                  long[] tableIds) {
        return delegate.commit(startTimestamp, commitToken, writeSet, tableIds);
    }

    @Override
    public TsoIncarnation incarnation() throws TsoUnavailableException {
        return delegate.incarnation();
    }

    @Override
    public String describeTarget() {
        return delegate.describeTarget();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
