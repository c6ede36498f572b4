package io.tidemark.committable;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Sends one round trip of commit records without blocking the caller: how {@link GroupCommitWriter} writes its
 * batches. {@link HBaseAsyncCommitBatches} is the production one.
 */
@FunctionalInterface
public interface CommitBatchSender {

    /**
     * Completes as {@link CommitTable#tryCommitAll(List, CommitRecordDeadline)} returns (element i says whether record
     * i stands) or exceptionally as it throws, with an {@link java.io.IOException} that leaves every record's outcome
     * unknown. Completions may run on the sender's own threads: what is chained on them must not block.
     */
    CompletableFuture<boolean[]> send(List<CommitRecord> records, CommitRecordDeadline deadline);

    /**
     * Batches as blocking {@link CommitTable#tryCommitAll} calls on {@code threads}, for a table without an
     * asynchronous client such as {@link InMemoryCommitTable}: each round trip holds one of the threads.
     */
    static CommitBatchSender blockingOn(CommitTable table, Executor threads) {
        return (records, deadline) -> CompletableFuture.supplyAsync(() -> {
            try {
                return table.tryCommitAll(records, deadline);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, threads);
    }
}
