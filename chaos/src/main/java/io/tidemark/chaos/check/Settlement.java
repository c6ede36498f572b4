package io.tidemark.chaos.check;

import io.tidemark.chaos.history.HistoryLines;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.Txn;
import io.tidemark.timestamp.Timestamps;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settles what really happened to every writing transaction from the store image, the way a reader would resolve
 * it: the commit record, else the shadow cells at its version. Fast-path writes are found at the version they were
 * told, or by their unique values; deletes and increments whose client never learned the outcome are matched with
 * committed versions nobody else wrote. Along the way it reports answers that contradict the store, committed
 * versions no operation explains, and a store that contradicts itself.
 */
public final class Settlement {

    private final StoreImage store;
    private final Map<Txn, Outcome> outcomes = new LinkedHashMap<>();
    private final Map<Txn, Map<Key, String>> storedValues = new HashMap<>();
    private final Map<Key, Set<Long>> explained = new HashMap<>();
    private final Map<Key, List<long[]>> toldCommittedVersions = new HashMap<>();
    private final List<Anomaly> anomalies = new ArrayList<>();

    private Settlement(StoreImage store) {
        this.store = store;
    }

    /** Settles every transaction of {@code history} that wrote something. */
    public static Settlement settle(List<Txn> history, StoreImage store) {
        Settlement s = new Settlement(store);
        s.run(history);
        return s;
    }

    /** The settled outcome of a writing transaction; null for read-only ones. */
    public Outcome outcomeOf(Txn txn) {
        return outcomes.get(txn);
    }

    /** The low watermark compaction collected garbage with, as the store image recorded it. */
    public long lowWatermark() {
        return store.lowWatermark();
    }

    public List<Anomaly> anomalies() {
        return anomalies;
    }

    /** Every committed write in commit order per key, plus the writers that cannot be settled. */
    public Ledger ledger() {
        Ledger ledger = new Ledger();
        for (Map.Entry<Txn, Outcome> e : outcomes.entrySet()) {
            Txn txn = e.getKey();
            Outcome outcome = e.getValue();
            for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
                String value = valueWritten(txn, w.getKey(), w.getValue());
                ledger.addWriter(w.getKey(), value, txn);
                if (outcome.fate() == Outcome.Fate.UNDETERMINED
                        || (outcome.isCommitted() && HistoryLines.NOT_YET_KNOWN.equals(value))) {
                    ledger.addUndetermined(w.getKey(), txn);
                } else if (outcome.isCommitted()) {
                    long bound = txn.readBound() > 0 ? txn.readBound() : outcome.version();
                    ledger.addCommitted(new CommittedWrite(w.getKey(), value, outcome.commitTimestamp(),
                            outcome.version(), bound, txn));
                }
            }
        }
        ledger.seal();
        return ledger;
    }

    private String valueWritten(Txn txn, Key key, String recorded) {
        if (HistoryLines.NOT_YET_KNOWN.equals(recorded)) {
            return storedValues.getOrDefault(txn, Map.of()).getOrDefault(key, recorded);
        }
        return recorded;
    }

    private void run(List<Txn> history) {
        List<Txn> pendingFastPath = new ArrayList<>();
        for (Txn txn : history) {
            if (txn.told().kind() == Told.Kind.COMMITTED && txn.hasWrites()) {
                long version = txn.fastPath() || Timestamps.isFastPathVersion(txn.told().timestamp())
                        ? txn.told().timestamp() : txn.start();
                for (Key key : txn.writes().keySet()) {
                    toldCommittedVersions.computeIfAbsent(key, k -> new ArrayList<>())
                            .add(new long[] {version, txn.told().timestamp()});
                }
            }
        }
        for (Txn txn : history) {
            if (!txn.hasWrites()) {
                continue;
            }
            if (!txn.fastPath()) {
                outcomes.put(txn, settleGeneric(txn));
            } else if (txn.told().kind() == Told.Kind.COMMITTED) {
                outcomes.put(txn, settleToldFastPath(txn));
            } else {
                Outcome byValue = findFastPathByValue(txn);
                if (byValue != null) {
                    outcomes.put(txn, byValue);
                } else {
                    pendingFastPath.add(txn);
                }
            }
        }
        matchUnexplainedVersions(pendingFastPath);
        for (Txn txn : pendingFastPath) {
            if (!outcomes.containsKey(txn)) {
                outcomes.put(txn, unresolvedFastPath(txn));
            }
        }
        reportUnexplainedVersions();
        compareWithToldOutcomes();
    }

    private Outcome settleGeneric(Txn txn) {
        long start = txn.start();
        Long inRegion = singleRegionCommitOf(txn);
        if (inRegion != null) {
            return settleSingleRegionCommit(txn, inRegion);
        }
        Set<Long> shadows = new TreeSet<>();
        boolean anyCell = false;
        List<Key> halfGone = new ArrayList<>();
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            StoredVersion v = store.versionsOf(w.getKey()).get(start);
            if (v != null) {
                anyCell = true;
                explain(w.getKey(), start);
                if (v.hasShadowCell()) {
                    shadows.add(v.shadowCommit());
                    if (w.getValue() == null ? !v.deleted() : v.value() == null && !v.deleted()) {
                        halfGone.add(w.getKey());
                    }
                }
            }
        }
        if (!halfGone.isEmpty()) {
            inconsistent(txn.describe() + " has shadow cells at version " + start + " of " + halfGone + " but the"
                    + " data cells (or tombstones) they vouch for are gone: something deleted a committed write");
        }
        Long record = store.commitRecord(start);
        if (shadows.size() > 1) {
            inconsistent(txn.describe() + " has shadow cells with different commit timestamps " + shadows);
        }
        if (record != null && record > 0) {
            if (!shadows.isEmpty() && !shadows.contains(record)) {
                inconsistent(txn.describe() + " has commit record " + record + " but shadow cells saying " + shadows);
            }
            return Outcome.committed(record, start, "commit record");
        }
        if (!shadows.isEmpty()) {
            long commit = shadows.iterator().next();
            if (record != null) {
                inconsistent(txn.describe() + " is marked invalidated in the commit table, yet its shadow cells say it"
                        + " committed at " + commit);
            }
            return Outcome.committed(commit, start, "shadow cells");
        }
        if (record != null) {
            return Outcome.notCommitted(start, "invalidated in the commit table");
        }
        if (anyCell) {
            return Outcome.notCommitted(start, "tentative cells without a commit record");
        }
        return settleWithoutTrace(txn, start);
    }

    /**
     * The version a generic transaction committed at with one request to its region (a single-region commit,
     * docs/architecture.md), or null when it did not: its start mark (a shadow cell alone at its start, naming the
     * version) or, should compaction have collected the mark, the fast-path version its client was told.
     */
    private Long singleRegionCommitOf(Txn txn) {
        for (Key key : txn.writes().keySet()) {
            StoredVersion v = store.versionsOf(key).get(txn.start());
            if (v != null && v.hasShadowCell() && v.value() == null && !v.deleted()
                    && Timestamps.isFastPathVersion(v.shadowCommit())) {
                explain(key, txn.start());
                return v.shadowCommit();
            }
        }
        Told told = txn.told();
        return told.kind() == Told.Kind.COMMITTED && Timestamps.isFastPathVersion(told.timestamp())
                ? told.timestamp() : null;
    }

    /**
     * A single-region commit starts at its start timestamp and commits at the version its region minted, where all
     * its writes are stored, each with its shadow cell.
     */
    private Outcome settleSingleRegionCommit(Txn txn, long version) {
        List<Key> missing = new ArrayList<>();
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            StoredVersion v = store.versionsOf(w.getKey()).get(version);
            if (v == null) {
                missing.add(w.getKey());
                continue;
            }
            explain(w.getKey(), version);
            if (v.shadowCommit() != version) {
                inconsistent(txn.describe() + " committed in its region at " + version + " but its write of "
                        + w.getKey() + " there has " + (v.hasShadowCell() ? "shadow cell " + v.shadowCommit()
                        : "no shadow cell"));
            }
            if (!HistoryLines.NOT_YET_KNOWN.equals(w.getValue())
                    && !java.util.Objects.equals(w.getValue(), v.visibleValue())) {
                inconsistent(txn.describe() + " wrote " + show(w.getValue()) + " to " + w.getKey() + " but its"
                        + " single-region commit stored " + show(v.visibleValue()) + " at version " + version);
            }
        }
        boolean collectable = true;
        for (Key key : missing) {
            collectable &= mayHaveBeenCollected(key, version, txn.writes().get(key) == null ? version : 0);
        }
        if (!missing.isEmpty() && !collectable) {
            anomalies.add(new Anomaly(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED, txn.describe() + " committed in its"
                    + " region at " + version + " but the store has no version " + version + " of " + missing));
        }
        return Outcome.committed(version, version, "single-region commit at its minted version");
    }

    /** Nothing of the transaction is stored: it removed its cells (aborted), or compaction collected them. */
    private Outcome settleWithoutTrace(Txn txn, long version) {
        Told told = txn.told();
        if (told.kind() != Told.Kind.COMMITTED) {
            // A single-region commit whose client never learned its outcome and whose start mark compaction
            // collected: its unique values, stored committed at the version its region minted.
            Outcome byValue = findFastPathByValue(txn);
            if (byValue != null) {
                return byValue;
            }
        }
        long commit = told.kind() == Told.Kind.COMMITTED ? told.timestamp() : 0;
        boolean collectable = true;
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            collectable &= mayHaveBeenCollected(w.getKey(), version, w.getValue() == null ? commit : 0);
        }
        if (told.kind() == Told.Kind.COMMITTED) {
            if (!collectable) {
                anomalies.add(new Anomaly(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED, txn.describe() + " was told "
                        + told + " but the store holds none of its writes " + txn.writes() + " (no cell at version "
                        + version + ", no commit record) and compaction cannot have collected them"));
            }
            return Outcome.committed(told.timestamp(), version, collectable ? "as told; compacted away"
                    : "as told; missing from the store");
        }
        if (told.kind().promisesNothingStored()) {
            return Outcome.notCommitted(version, "nothing stored, as told");
        }
        return collectable ? Outcome.undetermined(version, "nothing stored; compaction may have collected it")
                : Outcome.notCommitted(version, "nothing stored");
    }

    private Outcome settleToldFastPath(Txn txn) {
        long version = txn.told().timestamp();
        List<Key> missing = new ArrayList<>();
        Map<Key, String> found = new HashMap<>();
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            StoredVersion v = store.versionsOf(w.getKey()).get(version);
            if (v == null) {
                missing.add(w.getKey());
                continue;
            }
            explain(w.getKey(), version);
            found.put(w.getKey(), v.visibleValue());
            if (v.shadowCommit() != version) {
                inconsistent(txn.describe() + " wrote " + w.getKey() + " at version " + version + " but the stored"
                        + " version has " + (v.hasShadowCell() ? "shadow cell " + v.shadowCommit() : "no shadow cell"));
            }
            String written = w.getValue();
            if (!HistoryLines.NOT_YET_KNOWN.equals(written) && !java.util.Objects.equals(written, v.visibleValue())) {
                inconsistent(txn.describe() + " wrote " + show(written) + " to " + w.getKey() + " at version "
                        + version + " but the store holds " + show(v.visibleValue()) + " there");
            }
        }
        storedValues.put(txn, found);
        boolean collectable = true;
        for (Key key : missing) {
            collectable &= mayHaveBeenCollected(key, version, txn.writes().get(key) == null ? version : 0);
        }
        if (!missing.isEmpty() && !collectable) {
            anomalies.add(new Anomaly(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED, txn.describe() + " was told "
                    + txn.told() + " but the store has no version " + version + " of " + missing));
        }
        return Outcome.committed(version, version, missing.isEmpty() ? "stored at its version" : "as told");
    }

    /** A fast-path write whose client was not told it committed, found by its unique value. */
    private Outcome findFastPathByValue(Txn txn) {
        for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
            String value = w.getValue();
            if (value == null || HistoryLines.NOT_YET_KNOWN.equals(value) || value.startsWith("#")) {
                continue;
            }
            for (StoredVersion v : store.versionsOf(w.getKey()).values()) {
                if (!v.deleted() && value.equals(v.value()) && store.committedAt(w.getKey(), v.version()) > 0) {
                    return attributeFastPath(txn, v.version(), "its value " + value + " is stored at version "
                            + v.version());
                }
            }
        }
        return null;
    }

    private Outcome attributeFastPath(Txn txn, long version, String evidence) {
        Map<Key, String> found = new HashMap<>();
        for (Key key : txn.writes().keySet()) {
            StoredVersion v = store.versionsOf(key).get(version);
            if (v != null) {
                explain(key, version);
                found.put(key, v.visibleValue());
            }
        }
        storedValues.put(txn, found);
        long commit = 0;
        for (Key key : found.keySet()) {
            commit = Math.max(commit, store.committedAt(key, version));
        }
        return Outcome.committed(commit > 0 ? commit : version, version, evidence);
    }

    /**
     * Committed fast-path versions nobody has explained yet are deletes or increments whose client was not told the
     * outcome (their values are not unique); each is matched with one such operation on its key.
     */
    private void matchUnexplainedVersions(List<Txn> pending) {
        for (Txn txn : pending) {
            if (outcomes.containsKey(txn)) {
                continue;
            }
            for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
                Long match = unexplainedVersionFor(w.getKey(), w.getValue());
                if (match != null) {
                    outcomes.put(txn, attributeFastPath(txn, match, "matched with unexplained version " + match));
                    break;
                }
            }
        }
    }

    private Long unexplainedVersionFor(Key key, String written) {
        for (StoredVersion v : store.versionsOf(key).values()) {
            if (Timestamps.isTsoTimestamp(v.version()) || isExplained(key, v.version())
                    || store.committedAt(key, v.version()) == 0) {
                continue;
            }
            boolean fits = written == null ? v.deleted() : HistoryLines.NOT_YET_KNOWN.equals(written) && !v.deleted();
            if (fits) {
                return v.version();
            }
        }
        return null;
    }

    private Outcome unresolvedFastPath(Txn txn) {
        if (txn.told().kind().promisesNothingStored()) {
            return Outcome.notCommitted(0, "nothing of it is stored, as told");
        }
        boolean collectable = true;
        for (Key key : txn.writes().keySet()) {
            collectable &= mayHaveBeenCollected(key, 0, 0);
        }
        return collectable ? Outcome.undetermined(0, "nothing stored; compaction may have collected it")
                : Outcome.notCommitted(0, "nothing of it is stored");
    }

    private void reportUnexplainedVersions() {
        for (Key key : sorted(store.keys())) {
            for (StoredVersion v : store.versionsOf(key).values()) {
                long commit = store.committedAt(key, v.version());
                if (commit > 0 && !isExplained(key, v.version())) {
                    anomalies.add(new Anomaly(Anomaly.Kind.UNEXPLAINED_VERSION, key + " has a version " + v.version()
                            + " committed at " + commit + " holding " + show(v.visibleValue()) + " that no recorded"
                            + " operation wrote: an operation was applied twice, or a write was invented"));
                }
            }
        }
    }

    private void compareWithToldOutcomes() {
        for (Map.Entry<Txn, Outcome> e : outcomes.entrySet()) {
            Txn txn = e.getKey();
            Outcome truth = e.getValue();
            Told told = txn.told();
            if (told.kind() == Told.Kind.COMMITTED) {
                if (truth.fate() == Outcome.Fate.NOT_COMMITTED) {
                    anomalies.add(new Anomaly(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED, txn.describe()
                            + " was told " + told + " but is " + truth));
                } else if (truth.isCommitted() && truth.commitTimestamp() != told.timestamp()) {
                    anomalies.add(new Anomaly(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED, txn.describe()
                            + " was told " + told + " but the store says " + truth));
                }
            } else if (told.kind().promisesNothingStored() && truth.isCommitted()) {
                anomalies.add(new Anomaly(Anomaly.Kind.TOLD_NOT_COMMITTED_BUT_STORED, txn.describe() + " was told "
                        + told + " but is " + truth + "; its writes " + txn.writes() + " are visible to readers"));
            }
        }
    }

    /**
     * Whether compaction may have removed the version of {@code key} at {@code version} (0: any version): a newer
     * version committed at or below the low watermark is stored, or was told committed; or the version is a deletion
     * committed at or below the low watermark ({@code deletionCommit}, 0 when it is not a deletion or its commit is
     * unknown), which a major compaction drops once no snapshot can read below it.
     */
    private boolean mayHaveBeenCollected(Key key, long version, long deletionCommit) {
        if (deletionCommit > 0 && deletionCommit <= store.lowWatermark()) {
            return true;
        }
        if (store.mayHaveBeenCollected(key, version)) {
            return true;
        }
        for (long[] vc : toldCommittedVersions.getOrDefault(key, List.of())) {
            if (vc[0] > version && vc[1] <= store.lowWatermark()) {
                return true;
            }
        }
        return false;
    }

    private void explain(Key key, long version) {
        explained.computeIfAbsent(key, k -> new HashSet<>()).add(version);
    }

    private boolean isExplained(Key key, long version) {
        return explained.getOrDefault(key, Set.of()).contains(version);
    }

    private void inconsistent(String explanation) {
        anomalies.add(new Anomaly(Anomaly.Kind.INCONSISTENT_STORE, explanation));
    }

    private static List<Key> sorted(Iterable<Key> keys) {
        List<Key> list = new ArrayList<>();
        keys.forEach(list::add);
        list.sort(null);
        return list;
    }

    static String show(String value) {
        return value == null ? "nothing (absent)" : "'" + value + "'";
    }
}
