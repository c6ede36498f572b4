package io.tidemark.bench.contention;

import io.tidemark.bench.txn.TxMeasurement;

/** Throughput and aborts at one key skew. */
public record ContentionResult(double theta, TxMeasurement measurement) {
}
