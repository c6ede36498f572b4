package io.tidemark.processcluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * SIGSTOP and SIGCONT of a process by its pid (Java has no API for them): a stopped process does nothing at all, as in
 * a stop-the-world pause, and goes on where it stopped when continued, its clocks having moved on.
 */
public final class Signals {

    private Signals() {
    }

    /** SIGSTOP. */
    public static void stop(long pid) throws IOException {
        send("STOP", pid);
    }

    /** SIGCONT. */
    public static void resume(long pid) throws IOException {
        send("CONT", pid);
    }

    private static void send(String signal, long pid) throws IOException {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                    .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IOException("kill -" + signal + " " + pid + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending SIG" + signal + " to " + pid, e);
        }
    }
}
