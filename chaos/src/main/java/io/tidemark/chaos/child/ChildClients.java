package io.tidemark.chaos.child;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The child JVMs of one run: starts them with this JVM's classpath and the HBase JVM flags of the root pom, kills
 * one with SIGKILL on request (and starts a replacement with new client names), and waits for the rest at the end.
 * Each child's output goes to {@code child-<n>.log} in the run's directory.
 */
public final class ChildClients {

    private static final String FLAGS_RESOURCE = "child-jvm.properties";
    private static final String CHILD_HEAP = "-Xmx384m";

    private final Path directory;
    private final IntFunction<ChildSpec> specOfChild;
    private final List<Process> running = new ArrayList<>();
    private int started;
    private int killed;

    /** @param specOfChild the spec of child number n (its clients, seed...) */
    public ChildClients(Path directory, IntFunction<ChildSpec> specOfChild) {
        this.directory = directory;
        this.specOfChild = specOfChild;
    }

    public synchronized void start() throws IOException {
        int number = ++started;
        Path specFile = directory.resolve("child-" + number + ".properties");
        specOfChild.apply(number).write(specFile);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(CHILD_HEAP);
        command.addAll(jvmFlags());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ChildClientMain.class.getName());
        command.add(specFile.toString());
        Path log = directory.resolve("child-" + number + ".log").toAbsolutePath();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        running.add(process);
    }

    /** Kills a random running child with SIGKILL and starts a replacement; false when none was running. */
    public synchronized boolean killOne(Random random) throws IOException {
        running.removeIf(p -> !p.isAlive());
        if (running.isEmpty()) {
            return false;
        }
        Process victim = running.remove(random.nextInt(running.size()));
        victim.destroyForcibly();
        try {
            victim.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        killed++;
        start();
        return true;
    }

    public synchronized int started() {
        return started;
    }

    public synchronized int killed() {
        return killed;
    }

    /** Waits for every child to stop on its own (they stop at the deadline), then kills whatever is left. */
    public synchronized int awaitAll(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        int failed = 0;
        for (Process p : running) {
            long left = Math.max(1, deadline - System.currentTimeMillis());
            if (!p.waitFor(left, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                failed++;
            } else if (p.exitValue() != 0) {
                failed++;
            }
        }
        running.clear();
        return failed;
    }

    /** Kills every child at once (the run is being abandoned). */
    public synchronized void killAll() {
        for (Process p : running) {
            p.destroyForcibly();
        }
        running.clear();
    }

    private static List<String> jvmFlags() {
        Properties p = new Properties();
        try (InputStream in = ChildClients.class.getResourceAsStream(FLAGS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(FLAGS_RESOURCE + " is missing from the classpath");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arrays.stream(p.getProperty("jvm.flags").trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
    }
}
