package io.tidemark.bench.attack;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The TSO under attack, in a process of its own ({@link StandaloneTso}), so that its memory can be read from
 * {@code /proc} apart from the attackers'. Its log goes to a file; it dies with the benchmark (its standard input is
 * the benchmark's pipe).
 */
final class TsoChild implements AutoCloseable {

    private static final long START_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final int port;
    private final int httpPort;

    private TsoChild(Process process, int port, int httpPort) {
        this.process = process;
        this.port = port;
        this.httpPort = httpPort;
    }

    /** Starts {@code command} (which runs {@link StandaloneTso}) and waits until it serves. */
    static TsoChild start(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.startsWith(StandaloneTso.READY)) {
                String[] ports = line.substring(StandaloneTso.READY.length()).trim().split(" ");
                Thread drain = new Thread(() -> drain(out), "tso-child-stdout");
                drain.setDaemon(true);
                drain.start();
                return new TsoChild(process, Integer.parseInt(ports[0]), Integer.parseInt(ports[1]));
            }
        }
        process.destroyForcibly();
        throw new IOException("the TSO process did not start; see " + log);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // Only the first line matters.
            }
        } catch (IOException e) {
            // The process ended.
        }
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port);
    }

    InetSocketAddress httpAddress() {
        return new InetSocketAddress("127.0.0.1", httpPort);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
