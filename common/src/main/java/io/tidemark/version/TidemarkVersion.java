package io.tidemark.version;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The Tidemark version, written into a resource of this jar by the build (so it is right whether the code runs from
 * a jar, a tarball or the build's class folders). Shown by the TSO's /health and {@code ./tidemark status}.
 */
public final class TidemarkVersion {

    private static final String RESOURCE = "tidemark-version.properties";
    private static final String VERSION = load();

    private TidemarkVersion() {
    }

    /** E.g. {@code 0.1.0-SNAPSHOT}. */
    public static String current() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = TidemarkVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing next to " + TidemarkVersion.class.getName()
                        + ": the jar was not built by the project's build");
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            if (version == null || version.isEmpty() || version.startsWith("${")) {
                throw new IllegalStateException(RESOURCE + " holds no version: the build did not filter it");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + RESOURCE, e);
        }
    }
}
