package io.tidemark.chaos.check;

import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Txn;
import io.tidemark.chaos.history.WatermarkSamples;
import io.tidemark.timestamp.Timestamps;

import java.util.List;

/** Runs every check over one history and the store image taken after it. Pure: no HBase needed. */
public final class HistoryChecker {

    private final KeySpace keySpace;

    public HistoryChecker(KeySpace keySpace) {
        this.keySpace = keySpace;
    }

    public CheckResult check(List<Txn> history, StoreImage store) {
        return check(history, store, List.of());
    }

    /** @param watermarks the persisted low watermark as the run read it over time, in order */
    public CheckResult check(List<Txn> recorded, StoreImage store, List<WatermarkSamples.Sample> watermarks) {
        List<Txn> history = LazyStarts.resolve(recorded, store);
        Settlement settlement = Settlement.settle(history, store);
        Ledger ledger = settlement.ledger();
        Findings findings = new Findings();
        findings.addAll(settlement.anomalies());
        new SnapshotReadCheck(keySpace, ledger, settlement, findings).check(history);
        new FirstCommitterWinsCheck(ledger, findings).check();
        new ConditionalWriteCheck(keySpace, ledger, settlement, findings).check(history);
        new RepeatedReadCheck(keySpace, findings).check(history);
        new SessionOrderCheck(findings, store.lowWatermark()).check(history);
        new TsoOrderCheck(findings).check(history);
        new LowWatermarkCheck(findings).check(watermarks);
        long generic = 0;
        long fastPath = 0;
        long committed = 0;
        long singleRegion = 0;
        for (Txn txn : history) {
            if (txn.fastPath()) {
                fastPath++;
            } else {
                generic++;
            }
            Outcome outcome = settlement.outcomeOf(txn);
            if (outcome != null && outcome.isCommitted()) {
                committed++;
                if (!txn.fastPath() && Timestamps.isFastPathVersion(outcome.commitTimestamp())) {
                    singleRegion++;
                }
            }
        }
        return new CheckResult(generic, fastPath, committed, singleRegion, findings.readsChecked(), findings.readsUnchecked(),
                findings.anomalies());
    }
}
