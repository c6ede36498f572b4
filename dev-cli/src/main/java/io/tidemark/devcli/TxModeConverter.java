package io.tidemark.devcli;

import io.tidemark.bench.txn.TxMode;
import io.tidemark.cli.ChoiceConverter;

/** Parses a benchmark mode: generic, batched, fastpath or raw. */
final class TxModeConverter extends ChoiceConverter<TxMode> {

    TxModeConverter() {
        super(TxMode::fromLabel);
    }
}
