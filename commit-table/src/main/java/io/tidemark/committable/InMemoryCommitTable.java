package io.tidemark.committable;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link CommitTable} in this JVM's memory, with exactly the semantics of {@link HBaseCommitTable} (put-if-absent
 * decided by content), for unit tests and embedded use. Thread-safe: every record changes atomically.
 *
 * <p>{@link #failNext} injects failures: the next calls either fail before doing anything (the table is unreachable)
 * or do their work and then fail (the reply was lost), which is what a caller of the real table sees when a region
 * server is down or a connection breaks after the write.
 */
public final class InMemoryCommitTable implements CommitTable {

    /** What an injected failure does to the call it hits. */
    public enum Fault {
        /** The call fails without any effect. */
        UNAVAILABLE,
        /** The call takes effect, then fails: the caller cannot tell whether it did. */
        REPLY_LOST
    }

    /** Start timestamp to the stored decision: a commit, or the invalidation marker. */
    private final Map<Long, CommitState> records = new ConcurrentHashMap<>();
    @GuardedBy("this")
    private long lowWatermark;
    @GuardedBy("this")
    private int failuresLeft;
    @GuardedBy("this")
    private @Nullable Fault fault;

    @Override
    public CommitState lookup(long startTimestamp) throws IOException {
        return call(() -> records.getOrDefault(startTimestamp, CommitState.absent()));
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        deadline.checkWriteMayStart();
        return call(() -> commit(record));
    }

    @Override
    public boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) throws IOException {
        deadline.checkWriteMayStart();
        return call(() -> {
            boolean[] won = new boolean[records.size()];
            for (int i = 0; i < won.length; i++) {
                won[i] = commit(records.get(i));
            }
            return won;
        });
    }

    private boolean commit(CommitRecord record) {
        CommitState stands = records.computeIfAbsent(record.startTimestamp(),
                start -> CommitState.committed(record.commitTimestamp()));
        return record.isRecordedAs(stands);
    }

    @Override
    public CommitState invalidate(long startTimestamp) throws IOException {
        return call(() -> records.computeIfAbsent(startTimestamp, start -> CommitState.invalidated()));
    }

    @Override
    public void undoInvalidation(long startTimestamp) throws IOException {
        run(() -> records.remove(startTimestamp, CommitState.invalidated()));
    }

    /** Removes the record; seals are not checked here (no guard runs in memory). */
    @Override
    public void release(CommitRecord record) throws IOException {
        run(() -> records.remove(record.startTimestamp()));
    }

    @Override
    public void releaseAll(List<CommitRecord> released) throws IOException {
        List<Long> starts = new ArrayList<>(released.size());
        for (CommitRecord record : released) {
            starts.add(record.startTimestamp());
        }
        call(() -> records.keySet().removeAll(starts));
    }

    @Override
    public long readLowWatermark() throws IOException {
        return call(() -> {
            synchronized (this) {
                return lowWatermark;
            }
        });
    }

    @Override
    public void raiseLowWatermark(long lowWatermark) throws IOException {
        run(() -> {
            synchronized (this) {
                this.lowWatermark = Math.max(this.lowWatermark, lowWatermark);
            }
        });
    }

    /** The number of records (commits and invalidations) stored now. */
    public int size() {
        return records.size();
    }

    /** Makes the next {@code calls} calls (of any method) fail with an {@link IOException}, in the given way. */
    public synchronized void failNext(int calls, Fault fault) {
        if (calls < 0) {
            throw new IllegalArgumentException("calls must not be negative, was " + calls);
        }
        this.failuresLeft = calls;
        this.fault = fault;
    }

    private interface Call<T> {
        T run();
    }

    /** {@link #call} for an action whose result nobody reads. */
    private void run(Runnable action) throws IOException {
        call(() -> {
            action.run();
            return action;
        });
    }

    private <T> T call(Call<T> call) throws IOException {
        Fault hit = takeFault();
        if (hit == Fault.UNAVAILABLE) {
            throw new IOException("injected failure: the commit table is unavailable");
        }
        T result = call.run();
        if (hit == Fault.REPLY_LOST) {
            throw new IOException("injected failure: the reply was lost after the call took effect");
        }
        return result;
    }

    private synchronized @Nullable Fault takeFault() {
        if (failuresLeft == 0) {
            return null;
        }
        failuresLeft--;
        return fault;
    }
}
