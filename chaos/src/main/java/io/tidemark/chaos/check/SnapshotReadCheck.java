package io.tidemark.chaos.check;

import io.tidemark.chaos.history.HistoryLines;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Txn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every read obeys the snapshot rule computed from the timestamps: it returns the transaction's own latest write of
 * the key, else the value of the newest committed write whose commit timestamp is below the read's bound (absent
 * when that write is a delete, or when there is none). Scans are checked key by key over their whole range, so a row
 * a scan missed counts like a wrong get. Reads by the verifier that runs after the workload check that nothing
 * committed was lost.
 */
final class SnapshotReadCheck {

    /** Clients whose name starts with this are the verifier's final reads. */
    static final String VERIFIER_PREFIX = "verify";

    private final KeySpace keySpace;
    private final Ledger ledger;
    private final Settlement settlement;
    private final Findings findings;

    SnapshotReadCheck(KeySpace keySpace, Ledger ledger, Settlement settlement, Findings findings) {
        this.keySpace = keySpace;
        this.ledger = ledger;
        this.settlement = settlement;
        this.findings = findings;
    }

    void check(List<Txn> history) {
        for (Txn txn : history) {
            checkTxn(txn);
        }
    }

    private void checkTxn(Txn txn) {
        Map<Key, String> own = new HashMap<>();
        for (Op op : txn.ops()) {
            if (op instanceof Op.Write w) {
                if (!txn.fastPath()) {
                    own.put(w.key(), w.value());
                }
            } else if (op instanceof Op.Read r) {
                checkRead(txn, r.key(), r.value(), own, "read");
            } else if (op instanceof Op.Scan s) {
                for (Key key : keySpace.keysIn(s.fromRow(), s.toRow())) {
                    checkRead(txn, key, s.seen().get(key), own, s.toString());
                }
            }
        }
    }

    private void checkRead(Txn txn, Key key, String observed, Map<Key, String> own, String how) {
        long bound = txn.readBound();
        if (own.containsKey(key)) {
            String expected = own.get(key);
            if (HistoryLines.NOT_YET_KNOWN.equals(expected)) {
                findings.unchecked();
                return;
            }
            findings.checked();
            if (!Objects.equals(expected, observed)) {
                findings.add(Anomaly.Kind.STALE_READ, txn.describe() + ": its " + how + " of " + key + " returned "
                        + Settlement.show(observed) + " after the transaction itself wrote " + Settlement.show(expected)
                        + "; a transaction must read its own writes");
            }
            return;
        }
        if (bound <= 0 || ledger.isAmbiguousAt(key, bound)) {
            findings.unchecked();
            return;
        }
        CommittedWrite visible = ledger.visibleAt(key, bound);
        String expected = visible == null ? null : visible.value();
        if (Objects.equals(expected, observed)) {
            findings.checked();
            return;
        }
        Anomaly.Kind kind = classify(txn, key, observed, bound);
        if (kind == null) {
            findings.unchecked();
            return;
        }
        findings.checked();
        findings.add(kind, txn.describe() + (isVerifier(txn) ? " (final state, read after the run)" : "") + ": its "
                + how + " of " + key + " returned " + describeObserved(key, observed) + ", but its snapshot (commits"
                + " below " + bound + ") holds " + describeExpected(visible) + "; " + txn.describe() + " was told "
                + txn.told());
    }

    /** Why the observed value is wrong; null when its writer cannot be settled (the read is then not checked). */
    private Anomaly.Kind classify(Txn reader, Key key, String observed, long bound) {
        boolean verifier = isVerifier(reader);
        if (observed == null) {
            return verifier ? Anomaly.Kind.LOST_COMMITTED_WRITE : Anomaly.Kind.STALE_READ;
        }
        List<Txn> writers = ledger.writersOf(key, observed);
        if (writers.isEmpty()) {
            return Anomaly.Kind.READ_OF_UNKNOWN_VALUE;
        }
        Anomaly.Kind worst = null;
        for (Txn writer : writers) {
            Outcome outcome = settlement.outcomeOf(writer);
            if (outcome == null || outcome.fate() == Outcome.Fate.UNDETERMINED) {
                return null;
            }
            Anomaly.Kind kind;
            if (!outcome.isCommitted()) {
                kind = Anomaly.Kind.READ_OF_UNCOMMITTED_WRITE;
            } else if (outcome.commitTimestamp() >= bound) {
                kind = Anomaly.Kind.READ_FROM_THE_FUTURE;
            } else {
                kind = verifier ? Anomaly.Kind.LOST_COMMITTED_WRITE : Anomaly.Kind.STALE_READ;
            }
            if (worst == null || kind == Anomaly.Kind.STALE_READ || kind == Anomaly.Kind.LOST_COMMITTED_WRITE) {
                worst = kind;
            }
        }
        return worst;
    }

    private String describeObserved(Key key, String observed) {
        if (observed == null) {
            return "nothing (absent)";
        }
        List<Txn> writers = ledger.writersOf(key, observed);
        if (writers.isEmpty()) {
            return "'" + observed + "', a value no recorded operation wrote";
        }
        Txn writer = writers.get(0);
        return "'" + observed + "' written by " + writer.describe() + " (told " + writer.told() + "; settled: "
                + settlement.outcomeOf(writer) + ")";
    }

    private static String describeExpected(CommittedWrite visible) {
        if (visible == null) {
            return "nothing (no committed write)";
        }
        return Settlement.show(visible.value()) + " written by " + visible.writer().describe() + " committed at "
                + visible.commitTimestamp();
    }

    static boolean isVerifier(Txn txn) {
        return txn.client().startsWith(VERIFIER_PREFIX);
    }
}
