package io.tidemark.chaos.check;

import io.tidemark.chaos.history.HistoryLines;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Txn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Gives the generic transactions begun lazily ({@code tidemark.client.lazy-begin}) whose history never learned their
 * start the start the store shows. Such a transaction only writes, and its client records its start after its commit
 * returns; a client killed during the commit leaves it unknown. Its values are unique: where one of them is stored
 * is its start, a TSO timestamp when it began at its commit (its region declined) and sent its cells, or the version
 * it committed at in its region without beginning. A transaction none of whose values is stored never sent a cell
 * that stayed, and was never told it committed: it is left out of the checks, which have no start to place it at.
 */
final class LazyStarts {

    private LazyStarts() {
    }

    /** {@code history} with each unknown lazy start found in {@code store}, or the transaction left out. */
    static List<Txn> resolve(List<Txn> history, StoreImage store) {
        List<Txn> resolved = new ArrayList<>(history.size());
        for (Txn txn : history) {
            if (txn.fastPath() || txn.start() != 0) {
                resolved.add(txn);
                continue;
            }
            long stored = storedAt(txn, store);
            if (stored > 0) {
                resolved.add(txn.withStart(stored));
            }
        }
        return resolved;
    }

    /** The version one of the transaction's written values is stored at; 0 when none is. */
    private static long storedAt(Txn txn, StoreImage store) {
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            String value = w.getValue();
            if (value == null || HistoryLines.NOT_YET_KNOWN.equals(value)) {
                continue;
            }
            for (StoredVersion v : store.versionsOf(w.getKey()).values()) {
                if (value.equals(v.value())) {
                    return v.version();
                }
            }
        }
        return 0;
    }
}
