package io.tidemark.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A process of the deployment test: its stdout and stderr go to files in {@code logDir}, so that a failed step can
 * show what the process said ({@link #describe()}). Closing it kills it and every process it started.
 */
final class ChildProcess implements AutoCloseable {

    /** The last this many characters of each output go into failure messages. */
    private static final int OUTPUT_TAIL = 6_000;

    /**
     * Every process started, killed when this JVM exits: also when it is stopped before the tests' own clean-up runs
     * (a surefire timeout), so that no cluster or TSO outlives the test run.
     */
    private static final Set<Process> STARTED = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.forEach(ChildProcess::kill),
                "kill-child-processes"));
    }

    private final String name;
    private final List<String> command;
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private ChildProcess(String name, List<String> command, Process process, Path stdout, Path stderr) {
        this.name = name;
        this.command = List.copyOf(command);
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /**
     * Starts {@code command} with {@code environment} added to this JVM's, its outputs in {@code logDir} as
     * {@code <name>.out} and {@code <name>.err} (names must be unique per directory).
     */
    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path logDir) {
        Path out = logDir.resolve(name + ".out");
        Path err = logDir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().putAll(environment);
        try {
            Files.createDirectories(logDir);
            Process process = builder.start();
            STARTED.add(process);
            // Nothing to read on stdin: a command that asks gets end of file at once instead of waiting forever.
            process.getOutputStream().close();
            return new ChildProcess(name, command, process, out, err);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + ": " + command, e);
        }
    }

    /** Runs {@code command} to its end; a process still running after {@code timeout} is killed and fails the test. */
    static Result run(String name, List<String> command, Map<String, String> environment, Path logDir,
                      Duration timeout) {
        try (ChildProcess child = start(name, command, environment, logDir)) {
            int exitCode = child.waitFor(timeout);
            return new Result(exitCode, child.stdout(), child.stderr(), child.describe());
        }
    }

    /** Waits for the process to end and returns its exit code; kills it and fails if that takes over {@code timeout}. */
    int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                String description = describe();
                close();
                throw new AssertionError(name + " did not end within " + timeout + "; killed it.\n" + description);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + name, e);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    /** The command, whether and how it ended, and the end of its outputs: for failure messages. */
    String describe() {
        String state = process.isAlive() ? "still running" : "exit code " + process.exitValue();
        return "--- " + name + " (" + state + "): " + String.join(" ", command) + "\n"
                + "--- " + stdout + ":\n" + tail(stdout()) + "\n"
                + "--- " + stderr + ":\n" + tail(stderr()) + "\n";
    }

    /** Kills the process and everything it started (kill -9), and waits until it is gone. */
    @Override
    public void close() {
        kill(process);
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        STARTED.remove(process);
    }

    private static void kill(Process process) {
        // Children first: a launcher script that did not exec would otherwise leave its JVM behind.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(String text) {
        return text.length() <= OUTPUT_TAIL ? text : "[...]" + text.substring(text.length() - OUTPUT_TAIL);
    }

    /** What a process that ran to its end left behind. */
    record Result(int exitCode, String stdout, String stderr, String description) {
    }
}
