package io.tidemark.bench.breakdown;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BaselineRatiosTest {

    @Test
    void eachTransactionIsDividedByTheSameKindInEveryRawMode() {
        List<BreakdownResult> results = List.of(
                result(TxMode.GENERIC, "write", 3.0, 2.0),
                result(TxMode.GENERIC, "read", 0.5, 0.4),
                result(TxMode.RAW, "write", 0.5, 0.4),
                result(TxMode.RAW, "read", 0.25, 0.2),
                result(TxMode.RAW_AFTER_BEGIN, "write", 1.0, 0.8),
                result(TxMode.RAW_AFTER_BEGIN, "read", 0.5, 0.5));

        String csv = BaselineRatios.of(results).orElseThrow().toCsv();

        assertEquals("""
                mode,transaction,mean_over_raw,p50_over_raw,mean_over_raw-after-begin,p50_over_raw-after-begin
                generic,write,6.00,5.00,3.00,2.50
                generic,read,2.00,2.00,1.00,0.80
                """, csv);
    }

    @Test
    void aBaselineThatMeasuredNothingGivesNoRatio() {
        List<BreakdownResult> results = List.of(result(TxMode.BATCHED, "write", 3.0, 2.0),
                result(TxMode.RAW, "write", 0, 0));

        assertEquals("batched,write,n/a,n/a", BaselineRatios.of(results).orElseThrow().toCsv().lines()
                .skip(1).findFirst().orElseThrow());
    }

    @Test
    void aRunWithoutARawModeOrWithoutATransactionalOneHasNoRatios() {
        assertTrue(BaselineRatios.of(List.of(result(TxMode.GENERIC, "write", 3.0, 2.0))).isEmpty());
        assertTrue(BaselineRatios.of(List.of(result(TxMode.RAW, "write", 3.0, 2.0))).isEmpty());
    }

    private static BreakdownResult result(TxMode mode, String scenario, double meanMs, double p50Ms) {
        LatencySummary latency = new LatencySummary(meanMs > 0 ? 100 : 0, p50Ms, p50Ms * 3, meanMs, p50Ms * 5);
        return new BreakdownResult(mode, scenario, new TxMeasurement(scenario, 10, latency.count(), 0, 0, null,
                latency, 0, meanMs, 0, 0, 0, 0));
    }
}
