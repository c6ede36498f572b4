package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Txn;

import java.util.List;

/**
 * A fast-path conditional write (read-for-update at version x, then write if unchanged) may only commit at v if no
 * other committed write touched its row with a commit timestamp in (x, v).
 */
final class ConditionalWriteCheck {

    private final KeySpace keySpace;
    private final Ledger ledger;
    private final Settlement settlement;
    private final Findings findings;

    ConditionalWriteCheck(KeySpace keySpace, Ledger ledger, Settlement settlement, Findings findings) {
        this.keySpace = keySpace;
        this.ledger = ledger;
        this.settlement = settlement;
        this.findings = findings;
    }

    void check(List<Txn> history) {
        for (Txn txn : history) {
            if (txn.unchangedSince() < 0) {
                continue;
            }
            Outcome outcome = settlement.outcomeOf(txn);
            if (outcome == null || !outcome.isCommitted()) {
                continue;
            }
            String row = txn.fastPathRow();
            for (Key key : keySpace.keysOf(row)) {
                for (CommittedWrite w : ledger.committedWrites(key)) {
                    if (w.writer() != txn && w.commitTimestamp() > txn.unchangedSince()
                            && w.commitTimestamp() < outcome.commitTimestamp()) {
                        findings.add(Anomaly.Kind.CONDITIONAL_WRITE_ON_CHANGED_ROW, txn.describe() + " read row "
                                + row + " at version " + txn.unchangedSince() + " and committed its conditional write"
                                + " at " + outcome.commitTimestamp() + ", but " + w.writer().describe() + " wrote "
                                + key + " in between (committed at " + w.commitTimestamp() + ")");
                        return;
                    }
                }
            }
        }
    }
}
