package io.tidemark.bench.tpcc;

import io.tidemark.bench.txn.TxMode;

/** One measured run: a mode at a number of terminal threads. */
public record TpccResult(TxMode mode, int threads, double seconds, TpccStats stats) {

    /** Committed New-Orders per minute: tpmC-style, not an official TPC-C result. */
    public double newOrdersPerMinute() {
        return stats.newOrders() * 60.0 / seconds;
    }

    /**
     * Aborted transactions (the TSO's or a region server's refusal; user rollbacks not included) over the
     * transactions that tried to commit.
     */
    public double abortRate() {
        long attempts = stats.newOrders() + stats.payments() + stats.abortCount();
        return attempts == 0 ? 0 : (double) stats.abortCount() / attempts;
    }
}
