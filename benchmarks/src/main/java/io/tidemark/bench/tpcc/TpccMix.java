package io.tidemark.bench.tpcc;

import io.tidemark.config.Choices;

/** Which TPC-C transactions the terminals run. */
public enum TpccMix {
    /** New-Order only. */
    NEW_ORDER("new-order", 1.0),
    /** New-Order and Payment in TPC-C's proportion 45 : 43 (the other transaction types left out). */
    NEW_ORDER_PAYMENT("new-order+payment", 45.0 / 88.0);

    private final String label;
    private final double newOrderShare;

    TpccMix(String label, double newOrderShare) {
        this.label = label;
        this.newOrderShare = newOrderShare;
    }

    public String label() {
        return label;
    }

    /** The probability that a terminal's next transaction is a New-Order rather than a Payment. */
    public double newOrderShare() {
        return newOrderShare;
    }

    @Override
    public String toString() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted mixes */
    public static TpccMix fromLabel(String label) {
        return Choices.parse(values(), TpccMix::label, label, "transaction mix");
    }
}
