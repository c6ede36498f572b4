package io.tidemark.processcluster.cli;

import io.tidemark.processcluster.ClusterFiles;
import io.tidemark.processcluster.ClusterState;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/** The {@code --dir} of every cluster command: the folder the cluster's files and state live in. */
final class ClusterDirectoryOption {

    @Option(names = "--dir", defaultValue = ClusterCommand.DEFAULT_DIRECTORY, paramLabel = "<folder>",
            description = "Folder of the cluster's configuration, data, logs and state (default: ${DEFAULT-VALUE}).")
    private Path directory;

    ClusterFiles files() {
        return new ClusterFiles(directory);
    }

    /** What {@code up} recorded in the folder; a usage error naming the folder when no cluster was started there. */
    ClusterState state(CommandLine.Model.CommandSpec spec) throws IOException {
        ClusterFiles files = files();
        return ClusterState.read(files).orElseThrow(() -> new CommandLine.ParameterException(spec.commandLine(),
                "no cluster in " + files.directory() + " (no " + files.stateFile().getFileName()
                        + "): ./tidemark cluster up --dir " + files.directory()));
    }
}
