package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Txn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Scans agree with gets: within one generic transaction, every read of a key (a get, or a scan over its row) returns
 * the same answer until the transaction writes the key itself. Needs no settlement, so it also holds for reads whose
 * snapshot cannot be computed.
 */
final class RepeatedReadCheck {

    private final KeySpace keySpace;
    private final Findings findings;

    RepeatedReadCheck(KeySpace keySpace, Findings findings) {
        this.keySpace = keySpace;
        this.findings = findings;
    }

    void check(List<Txn> history) {
        for (Txn txn : history) {
            if (!txn.fastPath()) {
                checkTxn(txn);
            }
        }
    }

    private void checkTxn(Txn txn) {
        Map<Key, String[]> seen = new HashMap<>();
        for (Op op : txn.ops()) {
            if (op instanceof Op.Write w) {
                seen.remove(w.key());
            } else if (op instanceof Op.Read r) {
                if (compare(txn, seen, r.key(), r.value(), "get")) {
                    return;
                }
            } else if (op instanceof Op.Scan s) {
                for (Key key : keySpace.keysIn(s.fromRow(), s.toRow())) {
                    if (compare(txn, seen, key, s.seen().get(key), s.toString())) {
                        return;
                    }
                }
            }
        }
    }

    /** True when a disagreement was reported (one per transaction is enough). */
    private boolean compare(Txn txn, Map<Key, String[]> seen, Key key, String value, String how) {
        String[] before = seen.get(key);
        if (before == null) {
            seen.put(key, new String[] {value, how});
            return false;
        }
        if (Objects.equals(before[0], value)) {
            return false;
        }
        findings.add(Anomaly.Kind.SCAN_GET_DISAGREEMENT, txn.describe() + " read " + key + " twice in one snapshot:"
                + " its " + before[1] + " returned " + Settlement.show(before[0]) + ", its later " + how
                + " returned " + Settlement.show(value));
        return true;
    }
}
