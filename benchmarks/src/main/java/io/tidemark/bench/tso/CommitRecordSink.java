package io.tidemark.bench.tso;

import java.util.concurrent.CompletableFuture;

/**
 * What a benchmark client does after the TSO said COMMITTED and before it counts the commit as done: nothing (the
 * TSO alone), or writing the commit record as a low-latency client must. Completes with false when the commit was
 * lost after all (a reader invalidated it first).
 */
@FunctionalInterface
interface CommitRecordSink {

    CommitRecordSink NONE = (start, commit) -> CompletableFuture.completedFuture(true);

    CompletableFuture<Boolean> afterCommit(long startTimestamp, long commitTimestamp);
}
