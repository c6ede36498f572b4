package io.tidemark.chaos.child;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The start of a run's workload, shared with the child JVMs through files in the run's directory. A child connects to
 * the cluster, creates its ready file (beside its spec), then waits for the start file, which holds the run's
 * deadline. The parent announces the start once every child is ready, so a run's seconds count from the moment all
 * its clients work: launching a child JVM takes seconds, which a short run used to spend before its first commit
 * (and its client kills then waited for a commit that never came).
 */
public final class RunStart {

    private static final String START_FILE = "start";
    private static final long POLL_MILLIS = 10;

    private RunStart() {
    }

    /** The start file of the run whose files are in {@code directory}. */
    public static Path fileIn(Path directory) {
        return directory.resolve(START_FILE);
    }

    /** The file a child creates once it is connected, beside its spec file. */
    public static Path readyFileOf(Path specFile) {
        return specFile.resolveSibling(specFile.getFileName() + ".ready");
    }

    /** Starts the workload: every client stops at {@code deadlineMillis}. A child never reads half a file. */
    public static void announce(Path startFile, long deadlineMillis) throws IOException {
        Path written = startFile.resolveSibling(startFile.getFileName() + ".tmp");
        Files.writeString(written, Long.toString(deadlineMillis), StandardCharsets.UTF_8);
        Files.move(written, startFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Waits for the start and returns the deadline it announced. */
    public static long await(Path startFile, long timeoutMillis) throws IOException, InterruptedException {
        long giveUp = System.currentTimeMillis() + timeoutMillis;
        while (!Files.exists(startFile)) {
            if (System.currentTimeMillis() > giveUp) {
                throw new IOException("the run did not start within " + timeoutMillis / 1000 + " s: no " + startFile);
            }
            Thread.sleep(POLL_MILLIS);
        }
        return Long.parseLong(Files.readString(startFile, StandardCharsets.UTF_8).trim());
    }
}
