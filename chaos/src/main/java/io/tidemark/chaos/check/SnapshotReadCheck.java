package io.tidemark.chaos.check;

import io.tidemark.chaos.history.HistoryLines;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Txn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Every read obeys the snapshot rule computed from the timestamps: it returns the transaction's own latest write of
 * the key, else the value of the newest committed write whose commit timestamp is below the read's bound (absent
 * when that write is a delete, or when there is none). A scan is checked key by key over its whole range and
 * reported once, with every key it got wrong; a scan whose only fault is leaving rows out is told apart from one
 * that returned wrong values. Reads by the verifier that runs after the workload check that nothing committed was
 * lost.
 */
final class SnapshotReadCheck {

    /** Clients whose name starts with this are the verifier's final reads. */
    static final String VERIFIER_PREFIX = "verify";
    /** How many wrong keys of one scan an explanation lists. */
    private static final int KEYS_EXPLAINED = 3;

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
                Wrong wrong = checkRead(txn, r.key(), r.value(), own);
                if (wrong != null) {
                    findings.add(wrong.kind, txn.describe() + verifierNote(txn) + ": its read of " + wrong.text
                            + toldNote(txn));
                }
            } else if (op instanceof Op.Scan s) {
                checkScan(txn, s, own);
            }
        }
    }

    private void checkScan(Txn txn, Op.Scan scan, Map<Key, String> own) {
        List<Wrong> wrong = new ArrayList<>();
        for (Key key : keySpace.keysIn(scan.fromRow(), scan.toRow())) {
            Wrong w = checkRead(txn, key, scan.seen().get(key), own);
            if (w != null) {
                wrong.add(w);
            }
        }
        if (wrong.isEmpty()) {
            return;
        }
        Anomaly.Kind kind = Anomaly.Kind.SCAN_SKIPPED_ROWS;
        for (Wrong w : wrong) {
            if (!w.skipped) {
                kind = w.kind;
                break;
            }
        }
        StringBuilder text = new StringBuilder(txn.describe()).append(verifierNote(txn)).append(": its ").append(scan)
                .append(" got ").append(wrong.size()).append(" key(s) wrong");
        for (int i = 0; i < Math.min(KEYS_EXPLAINED, wrong.size()); i++) {
            text.append(i == 0 ? ": " : "; ").append(wrong.get(i).text);
        }
        if (wrong.size() > KEYS_EXPLAINED) {
            text.append("; ...");
        }
        findings.add(kind, text.append(toldNote(txn)).toString());
    }

    /** Checks one key read; null when it is right (or cannot be checked). */
    private Wrong checkRead(Txn txn, Key key, String observed, Map<Key, String> own) {
        long bound = txn.readBound();
        if (own.containsKey(key)) {
            String expected = own.get(key);
            if (HistoryLines.NOT_YET_KNOWN.equals(expected)) {
                findings.unchecked();
                return null;
            }
            findings.checked();
            if (Objects.equals(expected, observed)) {
                return null;
            }
            return new Wrong(Anomaly.Kind.STALE_READ, observed == null, key + " returned "
                    + Settlement.show(observed) + " after the transaction itself wrote " + Settlement.show(expected)
                    + " (a transaction reads its own writes)");
        }
        if (bound <= 0 || ledger.isAmbiguousAt(key, bound)) {
            findings.unchecked();
            return null;
        }
        CommittedWrite visible = ledger.visibleAt(key, bound);
        String expected = visible == null ? null : visible.value();
        if (Objects.equals(expected, observed) || isCollectedDeletion(txn, key, observed)) {
            findings.checked();
            return null;
        }
        Anomaly.Kind kind = classify(txn, key, observed, bound);
        if (kind == null) {
            findings.unchecked();
            return null;
        }
        findings.checked();
        return new Wrong(kind, observed == null, key + " returned " + describeObserved(key, observed)
                + ", but its snapshot (commits below " + bound + ") holds " + describeExpected(visible));
    }

    /**
     * A fast-path read reports the row's version as the newest commit it found; once compaction collected a deletion
     * committed at or below the low watermark, that version can be older than the deletion, while the row rightly
     * reads as every snapshot that can still commit sees it: the state after the low watermark.
     */
    private boolean isCollectedDeletion(Txn txn, Key key, String observed) {
        long lowWatermark = settlement.lowWatermark();
        if (!txn.fastPath() || observed != null || txn.readBound() > lowWatermark) {
            return false;
        }
        CommittedWrite newest = ledger.visibleAt(key, lowWatermark + 1);
        return newest != null && newest.value() == null;
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

    /** What the reader was told, when it was told anything (a fast-path read is told nothing but its answer). */
    private static String toldNote(Txn txn) {
        return txn.fastPath() && !txn.hasWrites() ? "" : "; " + txn.describe() + " was told " + txn.told();
    }

    private static String verifierNote(Txn txn) {
        return isVerifier(txn) ? " (final state, read after the run)" : "";
    }

    static boolean isVerifier(Txn txn) {
        return txn.client().startsWith(VERIFIER_PREFIX);
    }

    /** One wrong key: its kind, whether the key was merely left out, and the plain-words explanation. */
    private record Wrong(Anomaly.Kind kind, boolean skipped, String text) {
    }
}
