package io.tidemark.devcli;

import io.tidemark.cli.CommitModeConverter;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The embedded cluster quickstart and server start: its TSO's commit mode and ({@link StorageOption}) its storage. */
final class EmbeddedClusterOptions {

    @Option(names = "--mode", defaultValue = "${bundle:default.tidemark.tso.commit-mode}", paramLabel = "<mode>",
            converter = CommitModeConverter.class, completionCandidates = CommitModeConverter.Names.class,
            description = "Commit mode of the TSO: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private CommitMode mode;

    @Mixin
    private StorageOption storage;

    /** A builder of that cluster, for the caller to add to and start. */
    EmbeddedCluster.Builder builder() {
        return EmbeddedCluster.builder().commitMode(mode).storage(storage.storage());
    }

    /** What the command says before it starts the cluster, which takes a while. */
    String startingLine() {
        return "Starting an embedded HBase on " + storage.storage().label() + " storage and a TSO in "
                + mode.configName() + " mode...";
    }
}
