package io.tidemark.chaos.child;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * The start of a run's workload, shared with the child JVMs through files in the run's directory. A child connects to
 * the cluster, waits for the TSO file (the address of the run's TSO, or nothing when clients follow the TSO lease),
 * opens its transaction managers, creates its ready file (beside its spec), then waits for the start file, which
 * holds the run's deadline. The parent launches the children before it starts the TSO, so that they launch while the
 * TSO starts, and announces the start once every child is ready, so a run's seconds count from the moment all its
 * clients work: launching a child JVM takes seconds, which a short run used to spend before its first commit (and
 * its client kills then waited for a commit that never came). The run ends with the stop file (the start's deadline
 * is only a bound): it ends once its purpose is fulfilled, or late when its fault lanes hold it.
 */
public final class RunStart {

    private static final String START_FILE = "start";
    private static final String STOP_FILE = "stop";
    /** Starts with "tso-", like the TSO logs, which a run removes from its folder before it starts. */
    private static final String TSO_FILE = "tso-address";
    private static final long POLL_MILLIS = 10;

    private RunStart() {
    }

    /** The start file of the run whose files are in {@code directory}. */
    public static Path fileIn(Path directory) {
        return directory.resolve(START_FILE);
    }

    /** The stop file of the run whose files are in {@code directory}. */
    public static Path stopFileIn(Path directory) {
        return directory.resolve(STOP_FILE);
    }

    /** Ends the workload: every client stops. */
    public static void announceStop(Path stopFile) throws IOException {
        write(stopFile, "");
    }

    /**
     * Whether the clients of a child go on: until the stop file appears (looked for every {@value #POLL_MILLIS} ms on
     * a thread of its own), at the latest until {@code deadlineMillis}.
     */
    public static BooleanSupplier untilStopped(Path stopFile, long deadlineMillis) {
        AtomicBoolean stopped = new AtomicBoolean();
        Thread watcher = new Thread(() -> {
            try {
                while (!Files.exists(stopFile) && System.currentTimeMillis() < deadlineMillis) {
                    Thread.sleep(POLL_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            stopped.set(true);
        }, "run-stop-watcher");
        watcher.setDaemon(true);
        watcher.start();
        return () -> !stopped.get() && System.currentTimeMillis() < deadlineMillis;
    }

    /** The TSO file of the run whose files are in {@code directory}. */
    public static Path tsoFileIn(Path directory) {
        return directory.resolve(TSO_FILE);
    }

    /** The file a child creates once it is connected, beside its spec file. */
    public static Path readyFileOf(Path specFile) {
        return specFile.resolveSibling(specFile.getFileName() + ".ready");
    }

    /** Starts the workload: every client stops at the stop file, at the latest at {@code deadlineMillis}. */
    public static void announce(Path startFile, long deadlineMillis) throws IOException {
        write(startFile, Long.toString(deadlineMillis));
    }

    /** Waits for the start and returns the deadline it announced. */
    public static long await(Path startFile, long timeoutMillis) throws IOException, InterruptedException {
        return Long.parseLong(awaitFile(startFile, timeoutMillis, "the run did not start").trim());
    }

    /** Tells the children where the TSO serves: {@code host:port}, or null when clients follow the TSO lease. */
    public static void announceTso(Path tsoFile, String pinnedAddress) throws IOException {
        write(tsoFile, pinnedAddress == null ? "" : pinnedAddress);
    }

    /** Waits for the TSO and returns the address clients are pinned to; empty when they follow the TSO lease. */
    public static Optional<String> awaitTso(Path tsoFile, long timeoutMillis) throws IOException,
            InterruptedException {
        String address = awaitFile(tsoFile, timeoutMillis, "the run's TSO did not start").trim();
        return address.isEmpty() ? Optional.empty() : Optional.of(address);
    }

    /** Writes {@code text} to {@code file} at once: a child never reads half a file. */
    private static void write(Path file, String text) throws IOException {
        Path written = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(written, text, StandardCharsets.UTF_8);
        Files.move(written, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static String awaitFile(Path file, long timeoutMillis, String failure) throws IOException,
            InterruptedException {
        long giveUp = System.currentTimeMillis() + timeoutMillis;
        while (!Files.exists(file)) {
            if (System.currentTimeMillis() > giveUp) {
                throw new IOException(failure + " within " + timeoutMillis / 1000 + " s: no " + file);
            }
            Thread.sleep(POLL_MILLIS);
        }
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
