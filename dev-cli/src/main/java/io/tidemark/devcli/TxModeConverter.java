package io.tidemark.devcli;

import io.tidemark.bench.txn.TxMode;
import io.tidemark.cli.ChoiceConverter;

/** Parses a benchmark mode: generic, batched, fastpath, raw or raw-after-begin. */
final class TxModeConverter extends ChoiceConverter<TxMode> {

    TxModeConverter() {
        super(TxMode::fromLabel);
    }
}
