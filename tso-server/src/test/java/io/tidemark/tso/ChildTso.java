package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test TSO in a process of its own, for what a test cannot do to its own JVM (use up its file descriptors, run it
 * out of direct memory). Its arguments are {@code key=value} settings, and {@value #USE_UP_DESCRIPTORS} to open
 * /dev/null until the open-file limit stops it (start such a process with {@link #STARVABLE}). It prints
 * {@value #READY}, the port and the HTTP port, and answers the line {@value #FREE} by closing those files
 * ({@value #FREED}). It ends with its standard input.
 */
public final class ChildTso implements AutoCloseable {

    static final String USE_UP_DESCRIPTORS = "--use-up-descriptors";
    static final String READY = "READY ";
    static final String FREE = "free";
    static final String FREED = "FREED";
    /**
     * JVM flags for a process whose descriptors are used up: no container support, under which the JVM reads its
     * cgroup's limits every so often and so would take a descriptor whenever one is free, the TSO's reserve included.
     */
    static final List<String> STARVABLE = List.of("-XX:-UseContainerSupport");

    private final Process process;
    private final BufferedReader out;
    private final int port;
    private final int httpPort;

    private ChildTso(Process process, BufferedReader out, int port, int httpPort) {
        this.process = process;
        this.out = out;
        this.port = port;
        this.httpPort = httpPort;
    }

    /**
     * Starts the process under the shell command {@code prefix} (e.g. {@code ulimit -n 400}), with {@code jvmFlags},
     * and waits until it serves; its standard error goes to {@code log}.
     */
    static ChildTso start(String prefix, List<String> jvmFlags, Path log, String... args) throws IOException {
        List<String> java = new ArrayList<>();
        java.add(ProcessHandle.current().info().command().orElse("java"));
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (flag.startsWith("--add-")) {
                java.add(flag);
            }
        }
        java.addAll(jvmFlags);
        java.add("-cp");
        java.add(System.getProperty("java.class.path"));
        java.add(ChildTso.class.getName());
        java.addAll(List.of(args));
        List<String> command = new ArrayList<>(List.of("bash", "-c", prefix + " && exec \"$@\"", "bash"));
        command.addAll(java);
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String ready = out.readLine();
        if (ready == null || !ready.startsWith(READY)) {
            process.destroyForcibly();
            throw new IOException("the TSO process did not start; see " + log);
        }
        String[] ports = ready.substring(READY.length()).split(" ");
        return new ChildTso(process, out, Integer.parseInt(ports[0]), Integer.parseInt(ports[1]));
    }

    int port() {
        return port;
    }

    int httpPort() {
        return httpPort;
    }

    /** The process id of the TSO's JVM. */
    long pid() {
        return process.pid();
    }

    /** Closes the files it opened to use up its descriptors. */
    void freeDescriptors() throws IOException {
        OutputStream commands = process.getOutputStream();
        commands.write((FREE + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
        if (!FREED.equals(out.readLine())) {
            throw new IOException("the TSO process did not free its descriptors");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /**
     * Serves one transaction before the descriptors are used up. Classes load lazily, and a class read from a folder
     * of classes (as in a test, not from the tarball's jars, which are open already) needs a descriptor: starved, the
     * first connection's classes would fail to load, and the JVM remembers such a failure for good. Returns once the
     * server closed its side of the connection too, which it does in its own time: closed after the descriptors were
     * used up, it would leave one free, and the test's first connection would be served instead of closed.
     */
    private static void servedOnce(TsoServer server) throws IOException, InterruptedException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            client.commit(start, 1L);
        }
        for (int i = 0; i < 200 && server.status().connections() > 0; i++) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        TidemarkConfig config = TestTso.config("child", CommitMode.LOW_LATENCY);
        boolean useUpDescriptors = false;
        for (String arg : args) {
            if (arg.equals(USE_UP_DESCRIPTORS)) {
                useUpDescriptors = true;
            } else {
                config.hadoopConfiguration().set(arg.substring(0, arg.indexOf('=')),
                        arg.substring(arg.indexOf('=') + 1));
            }
        }
        try (TsoServer server = TestTso.start(config)) {
            List<FileChannel> filler = new ArrayList<>();
            if (useUpDescriptors) {
                servedOnce(server);
                try {
                    while (true) {
                        filler.add(FileChannel.open(Path.of("/dev/null")));
                    }
                } catch (IOException outOfDescriptors) {
                    // Every descriptor is taken now.
                }
            }
            System.out.println(READY + server.port() + " " + server.httpAddress().port());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals(FREE)) {
                    for (FileChannel file : filler) {
                        file.close();
                    }
                    filler.clear();
                    System.out.println(FREED);
                    System.out.flush();
                }
            }
        }
    }
}
