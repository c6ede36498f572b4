package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * First committer wins: of two committed transactions that wrote the same key, the later one must have seen the
 * earlier one's commit (its read bound is above that commit timestamp). A fast-path write counts as a transaction
 * whose start and commit are its version; a fast-path write that read the row first starts at the version it read.
 */
final class FirstCommitterWinsCheck {

    private final Ledger ledger;
    private final Findings findings;

    FirstCommitterWinsCheck(Ledger ledger, Findings findings) {
        this.ledger = ledger;
        this.findings = findings;
    }

    void check() {
        Set<String> reported = new HashSet<>();
        List<Key> keys = new ArrayList<>();
        ledger.keysWritten().forEach(keys::add);
        keys.sort(null);
        for (Key key : keys) {
            List<CommittedWrite> writes = ledger.committedWrites(key);
            for (int later = 0; later < writes.size(); later++) {
                CommittedWrite second = writes.get(later);
                for (int earlier = later - 1; earlier >= 0; earlier--) {
                    CommittedWrite first = writes.get(earlier);
                    if (first.commitTimestamp() < second.readBound()) {
                        break;
                    }
                    if (first.writer() == second.writer()) {
                        continue;
                    }
                    if (reported.add(first.writer().id() + " " + second.writer().id())) {
                        findings.add(Anomaly.Kind.FIRST_COMMITTER_WINS_VIOLATED, first.writer().describe() + " and "
                                + second.writer().describe() + " both wrote " + key + " and both committed (at "
                                + first.commitTimestamp() + " and " + second.commitTimestamp() + "), but the second"
                                + " one's snapshot (commits below " + second.readBound() + ") did not include the"
                                + " first one's commit: one update is lost. Told: "
                                + first.writer().told() + " / " + second.writer().told());
                    }
                }
            }
        }
    }
}
