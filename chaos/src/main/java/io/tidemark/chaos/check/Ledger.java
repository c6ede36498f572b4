package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Txn;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settled history per key: every committed write in commit order, and the writers nobody can settle any more.
 * "What does a snapshot with bound b see of key k" is answered here, from the timestamps alone.
 */
public final class Ledger {

    private final Map<Key, List<CommittedWrite>> committed = new HashMap<>();
    private final Map<Key, List<Txn>> undetermined = new HashMap<>();
    private final Map<Key, Map<String, List<Txn>>> writersOfValue = new HashMap<>();

    void addCommitted(CommittedWrite write) {
        committed.computeIfAbsent(write.key(), k -> new ArrayList<>()).add(write);
    }

    /** A writer of {@code key} whose start (or version) is {@code version} and whose outcome cannot be settled. */
    void addUndetermined(Key key, Txn writer) {
        undetermined.computeIfAbsent(key, k -> new ArrayList<>()).add(writer);
    }

    void addWriter(Key key, String value, Txn writer) {
        if (value != null) {
            writersOfValue.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(value, v -> new ArrayList<>())
                    .add(writer);
        }
    }

    void seal() {
        for (List<CommittedWrite> writes : committed.values()) {
            writes.sort(Comparator.comparingLong(CommittedWrite::commitTimestamp));
        }
    }

    /** The committed writes of {@code key}, in commit order. */
    public List<CommittedWrite> committedWrites(Key key) {
        return committed.getOrDefault(key, List.of());
    }

    public Iterable<Key> keysWritten() {
        return committed.keySet();
    }

    /** The newest committed write of {@code key} with a commit timestamp below {@code bound}; null when none. */
    public CommittedWrite visibleAt(Key key, long bound) {
        CommittedWrite newest = null;
        for (CommittedWrite w : committedWrites(key)) {
            if (w.commitTimestamp() >= bound) {
                break;
            }
            newest = w;
        }
        return newest;
    }

    /**
     * Whether a writer of {@code key} that cannot be settled may have committed below {@code bound}; a read at that
     * bound then cannot be checked.
     */
    public boolean isAmbiguousAt(Key key, long bound) {
        for (Txn t : undetermined.getOrDefault(key, List.of())) {
            long earliestCommit = t.fastPath() ? 1 : t.start();
            if (earliestCommit < bound) {
                return true;
            }
        }
        return false;
    }

    /** The transactions that wrote {@code value} to {@code key} (values are unique, except counters). */
    public List<Txn> writersOf(Key key, String value) {
        Map<String, List<Txn>> byValue = writersOfValue.get(key);
        return byValue == null ? List.of() : byValue.getOrDefault(value, List.of());
    }
}
