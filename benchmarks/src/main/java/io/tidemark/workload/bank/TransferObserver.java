package io.tidemark.workload.bank;

/** Told about each committed transfer, right after {@code commit()} returned; called from the transfer threads. */
@FunctionalInterface
public interface TransferObserver {

    TransferObserver NONE = (from, to, moved, commitTimestamp) -> { };

    /** {@code moved} went from account {@code from} to account {@code to} in the commit at {@code commitTimestamp}. */
    void committed(int from, int to, long moved, long commitTimestamp);
}
