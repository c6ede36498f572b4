package io.tidemark.processcluster.cli;

import io.tidemark.processcluster.ClusterFiles;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The {@code --dir} of every cluster command: the folder the cluster's files and state live in. */
final class ClusterDirectoryOption {

    @Option(names = "--dir", defaultValue = ClusterCommand.DEFAULT_DIRECTORY, paramLabel = "<folder>",
            description = "Folder of the cluster's configuration, data, logs and state (default: ${DEFAULT-VALUE}).")
    private Path directory;

    ClusterFiles files() {
        return new ClusterFiles(directory);
    }
}
