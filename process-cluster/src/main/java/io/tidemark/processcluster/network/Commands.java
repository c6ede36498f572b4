package io.tidemark.processcluster.network;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the system tools the network needs ({@code ip}, {@code iptables}, {@code nsenter}) to their end. */
final class Commands {

    private static final long TIMEOUT_SECONDS = 30;

    private Commands() {
    }

    /** Runs {@code command}; returns its output, or throws with its output when it fails. */
    static String run(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
        String text = new String(output, StandardCharsets.UTF_8).trim();
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit code " + process.exitValue() + ")"
                    + (text.isEmpty() ? "" : ": " + text));
        }
        return text;
    }

    static String run(String... command) throws IOException {
        return run(List.of(command));
    }

    /** Whether {@code tool} is an executable on the PATH (or at an absolute path). */
    static boolean available(String tool) {
        if (tool.startsWith("/")) {
            return new java.io.File(tool).canExecute();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (new java.io.File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
