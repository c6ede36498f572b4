package io.tidemark.cli;

import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;

import java.util.Arrays;
import java.util.Iterator;

/** Parses --mode: {@code low-latency} or {@code batched}, as in tidemark.tso.commit-mode. */
public final class CommitModeConverter implements CommandLine.ITypeConverter<CommitMode> {

    @Override
    public CommitMode convert(String value) {
        try {
            return CommitMode.fromConfigName(value.trim().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a commit mode: use low-latency "
                    + "or batched");
        }
    }

    /** The accepted values, for --help. */
    public static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(CommitMode.values()).map(CommitMode::configName).iterator();
        }
    }
}
