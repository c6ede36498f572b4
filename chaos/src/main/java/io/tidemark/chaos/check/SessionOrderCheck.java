package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.Txn;
import io.tidemark.timestamp.Timestamps;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each client sees its own past: a generic transaction begins above every commit its client was told of before (the
 * TSO's timestamps only grow, across restarts and failovers too), and a fast-path read of a row reports a version at
 * or above every commit to that row its client was told of. The snapshot rule alone cannot see this: a timestamp
 * that went backwards makes a wrong snapshot look consistent. A transaction begun lazily that committed in its region
 * without beginning is placed at its commit version, like a fast-path write, and is not checked for its start, only
 * the row it read before it would have begun, like a fast-path read.
 */
final class SessionOrderCheck {

    private final Findings findings;
    private final long lowWatermark;

    /** @param lowWatermark compaction may have collected a deletion at or below it, lowering a row's version */
    SessionOrderCheck(Findings findings, long lowWatermark) {
        this.findings = findings;
        this.lowWatermark = lowWatermark;
    }

    void check(List<Txn> history) {
        Map<String, List<Txn>> byClient = new HashMap<>();
        for (Txn txn : history) {
            byClient.computeIfAbsent(txn.client(), c -> new ArrayList<>()).add(txn);
        }
        for (List<Txn> txns : byClient.values()) {
            txns.sort(Comparator.comparingLong(Txn::seq));
            checkClient(txns);
        }
    }

    private void checkClient(List<Txn> txns) {
        Txn newestCommit = null;
        Map<String, Txn> newestCommitOfRow = new HashMap<>();
        for (Txn txn : txns) {
            if (!txn.fastPath() && committedWithoutBeginning(txn)) {
                checkRowsReadBeforeBeginning(txn, newestCommitOfRow);
            } else if (!txn.fastPath() && newestCommit != null && txn.start() <= newestCommit.told().timestamp()) {
                report(txn, "began at " + txn.start(), newestCommit);
            }
            String row = txn.fastPathRow();
            if (txn.fastPath() && !txn.hasWrites() && txn.readBound() > 0 && row != null) {
                Txn ownWrite = newestCommitOfRow.get(row);
                if (ownWrite != null && txn.readBound() - 1 < ownWrite.told().timestamp()
                        && ownWrite.told().timestamp() > lowWatermark) {
                    report(txn, "read row " + row + " at version " + (txn.readBound() - 1), ownWrite);
                }
            }
            if (txn.told().kind() == Told.Kind.COMMITTED && txn.hasWrites()) {
                if (newestCommit == null || txn.told().timestamp() > newestCommit.told().timestamp()) {
                    newestCommit = txn;
                }
                txn.writes().keySet().forEach(k -> newestCommitOfRow.merge(k.row(), txn,
                        (a, b) -> a.told().timestamp() >= b.told().timestamp() ? a : b));
            }
        }
    }

    private void report(Txn later, String what, Txn earlier) {
        findings.add(Anomaly.Kind.SESSION_ORDER_VIOLATED, later.describe() + " " + what + ", below the commit at "
                + earlier.told().timestamp() + " of " + earlier.describe() + " that the same client was told of"
                + " before: it cannot see its own client's committed writes");
    }

    /**
     * A transaction begun lazily that committed in its region without beginning: its start is its commit version,
     * minted above its own manager's transactions but not above those of the client's other managers or fast-path
     * tables. Like a fast-path write it has no snapshot that could miss the client's writes; a row it read before it
     * would have begun (a read-modify-write) was the row's latest committed state, checked by its region at the commit,
     * which must hold the client's earlier commits to that row, as a fast-path read's must.
     */
    private static boolean committedWithoutBeginning(Txn txn) {
        return Timestamps.isFastPathVersion(txn.start());
    }

    private void checkRowsReadBeforeBeginning(Txn txn, Map<String, Txn> newestCommitOfRow) {
        for (Op op : txn.ops()) {
            if (op instanceof Op.Read) {
                String row = ((Op.Read) op).key().row();
                Txn ownWrite = newestCommitOfRow.get(row);
                if (ownWrite != null && ownWrite.told().timestamp() >= txn.start()
                        && ownWrite.told().timestamp() > lowWatermark) {
                    report(txn, "read row " + row + " before it began, and committed at " + txn.start(), ownWrite);
                }
            }
        }
    }
}
