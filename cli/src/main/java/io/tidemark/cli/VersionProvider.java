package io.tidemark.cli;

import picocli.CommandLine;

/** The version from the jar manifest, or "development build" when running from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = Main.class.getPackage().getImplementationVersion();
        return new String[] {"tidemark " + (version == null ? "(development build)" : version)};
    }
}
