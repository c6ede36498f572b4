package io.tidemark.bench.tpcc;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxMode;

import java.util.List;

/**
 * What "bench tpcc" runs: for each mode, a fresh load of {@code warehouses} warehouses at {@code scale}, then one run
 * per entry of {@code threads}, then the consistency check.
 *
 * @param scale   fraction of TPC-C's cardinalities (items, customers, initial orders); 1 is the specification's
 * @param threads terminal threads per run, one run per entry
 */
public record TpccOptions(int warehouses, double scale, List<Integer> threads, TpccMix mix, List<TxMode> modes,
                          RunSettings run) implements BenchmarkOptions {

    /**
     * Why New-Order cannot use the fast path: it runs one single-row operation outside any transaction, while the
     * district counter must commit or abort together with the order that uses its value.
     */
    static final String NO_FAST_PATH = "the fast path runs only transactions of one single-row operation, and "
            + "New-Order reads and increments D_NEXT_O_ID inside the multi-row transaction that writes the order with "
            + "that id: a separate fast-path increment would consume order ids of New-Orders that then abort, breaking "
            + "consistency condition 2 (D_NEXT_O_ID - 1 = max(O_ID)); use generic or batched";

    public TpccOptions {
        RunSettings.required(run);
        threads = List.copyOf(threads);
        modes = List.copyOf(modes);
        if (warehouses < 1) {
            throw new IllegalArgumentException("--warehouses must be at least 1, got " + warehouses);
        }
        if (!(scale > 0 && scale <= 1)) {
            throw new IllegalArgumentException("--scale must be a fraction in (0, 1] of TPC-C's cardinalities, got "
                    + scale);
        }
        if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1)) {
            throw new IllegalArgumentException("--threads must be at least 1 each, got " + threads);
        }
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("--modes needs at least one mode: generic or batched");
        }
        if (modes.contains(TxMode.FASTPATH)) {
            throw new IllegalArgumentException("mode fastpath is refused: " + NO_FAST_PATH);
        }
        TxMode raw = modes.stream().filter(m -> !m.isTransactional()).findFirst().orElse(null);
        if (raw != null) {
            throw new IllegalArgumentException("mode " + raw + " is refused: TPC-C's transactions need transactions "
                    + "(plain HBase would corrupt D_NEXT_O_ID under concurrency); use generic or batched");
        }
        if (modes.stream().distinct().count() != modes.size()) {
            throw new IllegalArgumentException("--modes names a mode twice: " + modes);
        }
    }

    /** The cardinalities this scale gives. */
    public TpccScale cardinalities() {
        return TpccScale.of(warehouses, scale);
    }
}
