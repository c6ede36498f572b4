package io.tidemark.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code tidemark version}: prints {@code tidemark <version>} (the same line as {@code --version}), for operators and
 * scripts that check what is installed.
 */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Prints Tidemark's version.")
public final class VersionCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        for (String line : new VersionProvider().getVersion()) {
            spec.commandLine().getOut().println(line);
        }
        spec.commandLine().getOut().flush();
    }
}
