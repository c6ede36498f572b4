package io.tidemark.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code tidemark tso} in a process of its own, whose output is copied to a log file and watched for the lines that
 * say it stands by or serves. Used by the failover benchmark and the chaos checker.
 */
public final class TsoProcess implements AutoCloseable {

    private static final Pattern ACTIVE = Pattern.compile("^TSO active: .*, epoch (\\d+)\\.$");
    private static final String STANDING_BY = "Standing by";

    private final String name;
    private final Process process;
    private final CompletableFuture<Void> standingBy = new CompletableFuture<>();
    private final CompletableFuture<Long> activeEpoch = new CompletableFuture<>();
    private final CompletableFuture<Integer> exit;

    private TsoProcess(String name, Process process, Path log) throws IOException {
        this.name = name;
        this.process = process;
        PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
        Thread reader = new Thread(() -> copyAndWatch(out), "tso-output-" + name);
        reader.setDaemon(true);
        reader.start();
        this.exit = process.onExit().thenApply(Process::exitValue);
    }

    /** Starts {@code command} with its output (stdout and stderr) in {@code log}. */
    public static TsoProcess start(String name, List<String> command, Path log) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        return new TsoProcess(name, process, log);
    }

    private void copyAndWatch(PrintWriter out) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8)); out) {
            String line;
            while ((line = in.readLine()) != null) {
                out.println(line);
                if (line.startsWith(STANDING_BY)) {
                    standingBy.complete(null);
                }
                Matcher active = ACTIVE.matcher(line);
                if (active.matches()) {
                    activeEpoch.complete(Long.parseLong(active.group(1)));
                }
            }
        } catch (IOException e) {
            // The process ended; the exit future tells how.
        }
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    /** Completes once the TSO said it stands by. */
    public CompletableFuture<Void> standingBy() {
        return standingBy;
    }

    /** Completes with the epoch once the TSO said it serves. */
    public CompletableFuture<Long> activeEpoch() {
        return activeEpoch;
    }

    public CompletableFuture<Integer> exit() {
        return exit;
    }

    /** kill -9: no shutdown hook, no lease release, sockets closed by the kernel. */
    public void killHard() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public String toString() {
        return "TSO process " + name + " (pid " + process.pid() + ")";
    }

    /** SIGTERM, as Ctrl-C: the TSO gives its lease up. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
