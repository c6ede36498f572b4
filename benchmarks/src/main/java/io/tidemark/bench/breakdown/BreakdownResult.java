package io.tidemark.bench.breakdown;

import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;

/** Where the time of one kind of transaction went, in one mode. */
public record BreakdownResult(TxMode mode, String scenario, TxMeasurement measurement) {
}
