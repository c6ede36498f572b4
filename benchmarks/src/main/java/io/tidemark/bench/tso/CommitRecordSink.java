package io.tidemark.bench.tso;

import io.tidemark.committable.CommitRecord;

import java.util.concurrent.CompletableFuture;

/**
 * What a benchmark client does after the TSO said COMMITTED and before it counts the commit as done: nothing (the
 * TSO alone), or writing the commit record as a low-latency client must. Completes with false when the commit was
 * lost after all (a reader invalidated it first).
 */
@FunctionalInterface
interface CommitRecordSink {

    CommitRecordSink NONE = record -> CompletableFuture.completedFuture(true);

    /** @param record the commit as the TSO sealed it (its certificate is what the commit-record guard checks) */
    CompletableFuture<Boolean> afterCommit(CommitRecord record);
}
