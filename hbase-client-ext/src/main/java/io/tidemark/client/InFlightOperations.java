package io.tidemark.client;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The asynchronous operations ({@link AsyncTTable}) of one transaction that were issued and have not finished.
 *
 * <p>An operation names the rows it touches. It starts only after every write issued earlier to one of those rows
 * has finished, so a read sees the transaction's own earlier writes and two writes of one cell land in the order they
 * were issued. Operations on other rows do not wait for each other: that is the fan-out.
 *
 * <p>Commit and rollback {@link #end end} the transaction's operations: from then on new ones are refused, and the
 * end completes once the last running operation finished. The first write that failed is remembered; the commit
 * then aborts the transaction instead of committing part of what it was asked to write.
 */
final class InFlightOperations {

    /** The transaction, for messages. */
    private final Supplier<String> transaction;
    private final Set<Operation> running = new HashSet<>();
    /** Row -> the running writes to it, in the order they were issued. */
    private final Map<Object, List<Operation>> writesByRow = new HashMap<>();
    /** Running operations whose rows are not known in advance (scans): every operation issued after one waits. */
    private final List<Operation> barriers = new ArrayList<>();
    /** "commit" or "rollback" once one began; null while operations may still be issued. */
    private @Nullable String endedBy;
    private @Nullable CompletableFuture<Void> drained;
    private @Nullable Throwable firstWriteFailure;

    /** @param transaction names the transaction, for messages */
    InFlightOperations(Supplier<String> transaction) {
        this.transaction = transaction;
    }

    /**
     * Registers an operation on {@code rows} (keys with value equality); its {@link Operation#earlierWrites()}
     * completes when it may run. The caller must call {@link Operation#finish} exactly once, before telling anyone
     * the operation's outcome.
     *
     * @throws TransactionStateException the transaction's commit or rollback has begun
     */
    synchronized Operation start(Collection<?> rows, boolean write, String action) {
        checkNotEnded(action);
        List<CompletableFuture<Void>> earlier = new ArrayList<>();
        for (Object row : rows) {
            for (Operation w : writesByRow.getOrDefault(row, List.of())) {
                earlier.add(w.done);
            }
        }
        for (Operation b : barriers) {
            earlier.add(b.done);
        }
        Operation op = new Operation(List.copyOf(rows), write,
                CompletableFuture.allOf(earlier.toArray(new CompletableFuture<?>[0])));
        running.add(op);
        if (write) {
            for (Object row : op.rows) {
                writesByRow.computeIfAbsent(row, r -> new ArrayList<>()).add(op);
            }
        }
        return op;
    }

    /**
     * Registers an operation whose rows are not known in advance, such as a scan that sends the kept writes of its
     * range: it may run once every operation issued earlier finished, and every operation issued after it waits for
     * it. The caller must call {@link Operation#finish} exactly once.
     *
     * @throws TransactionStateException the transaction's commit or rollback has begun
     */
    synchronized Operation startBarrier(String action) {
        checkNotEnded(action);
        List<CompletableFuture<Void>> earlier = new ArrayList<>();
        for (Operation r : running) {
            earlier.add(r.done);
        }
        Operation op = new Operation(List.of(), false, CompletableFuture.allOf(earlier.toArray(
                new CompletableFuture<?>[0])));
        running.add(op);
        barriers.add(op);
        return op;
    }

    private void checkNotEnded(String action) {
        if (endedBy != null) {
            throw new TransactionStateException("cannot " + action + " in " + transaction.get() + ": its "
                    + endedBy + " has begun; issue every operation of a transaction before committing it");
        }
    }

    /**
     * Refuses operations from now on; the future completes when every running operation has finished (at once when
     * none runs). Ending twice returns the first end's future.
     */
    synchronized CompletableFuture<Void> end(String by) {
        if (endedBy == null) {
            endedBy = by;
            drained = new CompletableFuture<>();
            if (running.isEmpty()) {
                drained.complete(null);
            }
        }
        return Objects.requireNonNull(drained, "set with endedBy");
    }

    /** A write of the transaction sent outside an operation (its kept writes, sent before a read) failed. */
    synchronized void writeFailed(Throwable failure) {
        if (firstWriteFailure == null) {
            firstWriteFailure = failure;
        }
    }

    /** The failure of the first write that failed, or null. */
    synchronized @Nullable Throwable firstWriteFailure() {
        return firstWriteFailure;
    }

    /** How many operations are running. */
    synchronized int running() {
        return running.size();
    }

    private void finished(Operation op, @Nullable Throwable failure) {
        CompletableFuture<Void> nowDrained = null;
        synchronized (this) {
            if (!running.remove(op)) {
                throw new IllegalStateException("operation finished twice");
            }
            barriers.remove(op);
            if (op.write) {
                for (Object row : op.rows) {
                    // start() listed the write under each of its rows
                    List<Operation> writes = Objects.requireNonNull(writesByRow.get(row));
                    writes.remove(op);
                    if (writes.isEmpty()) {
                        writesByRow.remove(row);
                    }
                }
                if (failure != null && firstWriteFailure == null) {
                    firstWriteFailure = failure;
                }
            }
            if (drained != null && running.isEmpty()) {
                nowDrained = drained;
            }
        }
        // Outside the lock: these run whatever waits on them (later operations on the rows, a commit).
        op.done.complete(null);
        if (nowDrained != null) {
            nowDrained.complete(null);
        }
    }

    /** One registered operation. */
    final class Operation {
        private final List<Object> rows;
        private final boolean write;
        private final CompletableFuture<Void> earlierWrites;
        /** Completes normally when the operation finished, failed or not: only order is waited for. */
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        private Operation(List<Object> rows, boolean write, CompletableFuture<Void> earlierWrites) {
            this.rows = rows;
            this.write = write;
            this.earlierWrites = earlierWrites;
        }

        /** Completes (always normally) when every write issued earlier to one of this operation's rows finished. */
        CompletableFuture<Void> earlierWrites() {
            return earlierWrites;
        }

        /** The operation finished; {@code failure} is null when it succeeded. */
        void finish(@Nullable Throwable failure) {
            finished(this, failure);
        }
    }
}
