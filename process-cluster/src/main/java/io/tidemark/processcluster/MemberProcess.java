package io.tidemark.processcluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One running process of the cluster: started with its output appended to its log, and broken on request: killed
 * with SIGKILL ({@code kill -9}), or paused with SIGSTOP and resumed with SIGCONT, as a long GC pause would.
 */
public final class MemberProcess {

    private static final long KILL_WAIT_SECONDS = 30;

    private final Member member;
    private final ProcessHandle handle;
    private final Process process;
    private volatile boolean paused;

    private MemberProcess(Member member, ProcessHandle handle, Process process) {
        this.member = member;
        this.handle = handle;
        this.process = process;
    }

    /** Starts {@code command} for {@code member}, appending its output to {@code log}; it reads nothing. */
    static MemberProcess start(Member member, List<String> command, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        Files.writeString(log, "=== " + java.time.Instant.now() + " starting: " + String.join(" ", command)
                + System.lineSeparator(), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(new File("/dev/null")).start();
        return new MemberProcess(member, process.toHandle(), process);
    }

    /**
     * A process an earlier command started ({@code ./tidemark cluster up}); empty when it has ended, or when the pid
     * now belongs to a process whose command line does not name {@code directory} (the pid was reused).
     */
    static java.util.Optional<MemberProcess> attach(Member member, long pid, Path directory) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(h -> commandLineOf(pid).contains(directory.toString()))
                .map(h -> new MemberProcess(member, h, null));
    }

    /**
     * The whole command line of process {@code pid} (the JDK's own view truncates long ones, and classpaths here are
     * long), its arguments separated by spaces; "" when it has ended.
     */
    public static String commandLineOf(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return "";
        }
    }

    public Member member() {
        return member;
    }

    public long pid() {
        return handle.pid();
    }

    public boolean isAlive() {
        return handle.isAlive();
    }

    /** Whether it is stopped by {@link #pause()} and not resumed yet. */
    public boolean paused() {
        return paused;
    }

    /** {@code kill -9}, and waits until it is gone. A paused process dies just the same. */
    public void kill() throws InterruptedException {
        handle.destroyForcibly();
        waitForExit(KILL_WAIT_SECONDS);
        paused = false;
    }

    /** SIGTERM (an orderly stop), waiting up to {@code seconds} before it kills. */
    public void stop(long seconds) throws InterruptedException {
        handle.destroy();
        if (!waitForExit(seconds)) {
            kill();
        }
    }

    /** SIGSTOP: every thread stops where it is, as in a stop-the-world pause. */
    public void pause() throws IOException {
        Signals.stop(pid());
        paused = true;
    }

    /** SIGCONT: it goes on where it stopped, its clocks having moved on. */
    public void resume() throws IOException {
        Signals.resume(pid());
        paused = false;
    }

    /** Resident memory in KiB (VmRSS), 0 when it has ended. */
    public long residentKb() {
        return residentKb(pid());
    }

    /** Resident memory of process {@code pid} in KiB (VmRSS), 0 when it has ended. */
    public static long residentKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /** Its exit code, once it has ended and this JVM started it; null otherwise. */
    public Integer exitCode() {
        return process != null && !process.isAlive() ? process.exitValue() : null;
    }

    private boolean waitForExit(long seconds) throws InterruptedException {
        if (process != null) {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (handle.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return !handle.isAlive();
    }

    @Override
    public String toString() {
        return member.name() + " (pid " + pid() + ")";
    }
}
