package io.tidemark.cli;

import io.tidemark.protocol.CommitMode;

import java.util.Arrays;
import java.util.Iterator;

/** Parses --mode: {@code low-latency} or {@code batched}, as in tidemark.tso.commit-mode. */
public final class CommitModeConverter extends ChoiceConverter<CommitMode> {

    public CommitModeConverter() {
        super(CommitMode::fromConfigName);
    }

    /** The accepted values, for --help. */
    public static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Arrays.stream(CommitMode.values()).map(CommitMode::configName).iterator();
        }
    }
}
