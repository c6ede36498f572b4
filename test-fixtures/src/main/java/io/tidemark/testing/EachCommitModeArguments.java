package io.tidemark.testing;

import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;

import java.util.Arrays;
import java.util.stream.Stream;

/** The arguments of {@link EachCommitMode}; each mode's cluster starts only when its invocation comes. */
final class EachCommitModeArguments implements ArgumentsProvider {

    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
        return Arrays.stream(CommitMode.values()).map(mode -> Arguments.of(
                Named.of(mode.configName(), SharedTestClusters.get(context, mode))));
    }
}
