package io.tidemark.cli;

import io.tidemark.version.TidemarkVersion;
import picocli.CommandLine;

/** The version the build wrote into the jar (also right when running from the build's class folders). */
public final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {"tidemark " + TidemarkVersion.current()};
    }
}
