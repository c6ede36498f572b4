package io.tidemark.bench.failover;

import io.tidemark.workload.bank.TransferObserver;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Every transfer reported committed, summed per account, to compare with what the final snapshot holds; and the
 * moment of the first commit above a given epoch (the first commit on a new active TSO).
 */
final class TransferLedger implements TransferObserver {

    private final AtomicLongArray deltas;
    private final AtomicLong commits = new AtomicLong();
    /** Commits seen since {@link #startRecording()}: commit timestamp and when it was reported. */
    private final AtomicReference<ConcurrentLinkedQueue<long[]>> recording = new AtomicReference<>();

    TransferLedger(int accounts) {
        this.deltas = new AtomicLongArray(accounts);
    }

    @Override
    public void committed(int from, int to, long moved, long commitTimestamp) {
        long now = System.nanoTime();
        deltas.addAndGet(from, -moved);
        deltas.addAndGet(to, moved);
        commits.incrementAndGet();
        ConcurrentLinkedQueue<long[]> log = recording.get();
        if (log != null) {
            log.add(new long[] {commitTimestamp, now});
        }
    }

    long commits() {
        return commits.get();
    }

    /** Starts remembering when each commit is reported (call just before killing the active TSO). */
    void startRecording() {
        recording.set(new ConcurrentLinkedQueue<>());
    }

    /**
     * The {@link System#nanoTime()} at which the first commit above {@code epoch} (a commit of the TSO incarnation
     * with that epoch) was reported since {@link #startRecording()}, waiting for one up to {@code timeoutNanos}; -1
     * when none came.
     */
    long firstCommitAbove(long epoch, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        ConcurrentLinkedQueue<long[]> log = recording.get();
        while (System.nanoTime() - deadline < 0) {
            long first = -1;
            for (long[] commit : log) {
                if (commit[0] > epoch && (first < 0 || commit[1] - first < 0)) {
                    first = commit[1];
                }
            }
            if (first >= 0) {
                recording.set(null);
                return first;
            }
            Thread.sleep(5);
        }
        return -1;
    }

    /** The accounts whose final balance is not the initial one plus every committed transfer, described. */
    String mismatches(long initialBalance, long[] finalBalances) {
        StringBuilder found = new StringBuilder();
        int count = 0;
        for (int a = 0; a < finalBalances.length; a++) {
            long expected = initialBalance + deltas.get(a);
            if (finalBalances[a] != expected) {
                count++;
                if (count <= 5) {
                    found.append(found.length() == 0 ? "" : "; ").append("account ").append(a).append(" holds ")
                            .append(finalBalances[a]).append(" but committed transfers make it ").append(expected);
                }
            }
        }
        return count == 0 ? null : count + " account(s) disagree: " + found;
    }
}
