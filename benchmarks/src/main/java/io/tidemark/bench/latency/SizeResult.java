package io.tidemark.bench.latency;

import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;

/** Latency of transactions of one size in one mode. */
public record SizeResult(TxMode mode, int size, TxMeasurement measurement) {
}
