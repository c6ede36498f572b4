package io.tidemark.devcli;

import io.tidemark.bench.txn.TxMode;
import picocli.CommandLine;

/** Parses a benchmark mode: generic, batched or raw. */
final class TxModeConverter implements CommandLine.ITypeConverter<TxMode> {

    @Override
    public TxMode convert(String value) {
        try {
            return TxMode.fromLabel(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
