package io.tidemark.chaos.child;

import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.history.HistoryFiles;
import io.tidemark.chaos.history.HistoryLines;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * The child JVMs of one run: starts them with this JVM's classpath as the cluster's client processes
 * ({@link ChaosHBase#clientCommand}: each in a slot of its own, at most one running child per slot), kills one with
 * SIGKILL on request, mid-commit when it can (and starts a replacement with new client names), finds one in the
 * middle of a commit for other faults, and waits for the rest at the end.
 * Each child's output goes to {@code child-<n>.log} in the run's directory.
 */
public final class ChildClients {

    private static final String CHILD_HEAP = "384m";

    private final ChaosHBase cluster;
    private final Path directory;
    private final IntFunction<ChildSpec> specOfChild;
    /** How long a kill waits for one of the child's clients to reach its commit. */
    private static final long MID_COMMIT_WAIT_MILLIS = 5000;

    private final List<Child> running = new ArrayList<>();
    private int started;
    private int killed;
    private int killedMidCommit;

    /** @param specOfChild the spec of child number n (its clients, seed...) */
    public ChildClients(ChaosHBase cluster, Path directory, IntFunction<ChildSpec> specOfChild) {
        this.cluster = cluster;
        this.directory = directory;
        this.specOfChild = specOfChild;
    }

    public synchronized void start() throws IOException {
        int number = ++started;
        Path specFile = directory.resolve("child-" + number + ".properties");
        ChildSpec spec = specOfChild.apply(number);
        spec.write(specFile);
        int slot = freeSlot();
        List<String> command = cluster.clientCommand(slot, CHILD_HEAP, ChildClientMain.class.getName(),
                specFile.toString());
        Path log = logOf(number).toAbsolutePath();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        List<Path> histories = new ArrayList<>();
        for (String client : spec.clients()) {
            histories.add(HistoryFiles.fileOf(directory, client));
        }
        running.add(new Child(number, slot, process, histories, RunStart.readyFileOf(specFile)));
    }

    /** The lowest slot no running child holds. */
    private int freeSlot() {
        running.removeIf(c -> !c.process.isAlive());
        int slot = 0;
        while (true) {
            int candidate = slot;
            if (running.stream().noneMatch(c -> c.slot == candidate)) {
                return slot;
            }
            slot++;
        }
    }

    /**
     * A running child whose clients already work, preferably one of whose clients is asking to commit (it waits up
     * to {@value #MID_COMMIT_WAIT_MILLIS} ms for that); empty when no child runs.
     */
    public synchronized java.util.Optional<ClientProcess> awaitMidCommit(Random random) throws InterruptedException {
        running.removeIf(c -> !c.process.isAlive());
        if (running.isEmpty()) {
            return java.util.Optional.empty();
        }
        Child child = pick(random);
        boolean midCommit = awaitCommit(child);
        return java.util.Optional.of(new ClientProcess(child.number, child.slot, child.process.toHandle(),
                midCommit));
    }

    private Child pick(Random random) {
        List<Child> working = new ArrayList<>();
        for (Child c : running) {
            if (c.histories.stream().anyMatch(h -> !lastLine(h).isEmpty())) {
                working.add(c);
            }
        }
        List<Child> candidates = working.isEmpty() ? running : working;
        return candidates.get(random.nextInt(candidates.size()));
    }

    /**
     * Kills a random running child with SIGKILL (one whose clients already work, when there is one), preferably the
     * moment one of its clients is about to commit (it waits up to {@value #MID_COMMIT_WAIT_MILLIS} ms for that),
     * and starts a replacement. Returns what happened.
     */
    public synchronized String killOne(Random random) throws IOException, InterruptedException {
        running.removeIf(c -> !c.process.isAlive());
        if (running.isEmpty()) {
            return "no child JVM to kill";
        }
        Child victim = pick(random);
        // Interrupted while waiting (the run ends), the victim stays on the list, so the run still waits for it.
        boolean midCommit = awaitCommit(victim);
        running.remove(victim);
        victim.process.destroyForcibly();
        killed++;
        if (midCommit) {
            killedMidCommit++;
        }
        victim.process.onExit().join();
        start();
        return "killed child JVM " + victim.number + (midCommit ? " mid-commit" : " (none of its clients reached a"
                + " commit in time)") + " and started child JVM " + started;
    }

    /** Whether one of the child's clients got as far as asking to commit, waiting a while for it. */
    private static boolean awaitCommit(Child child) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MID_COMMIT_WAIT_MILLIS);
        while (System.nanoTime() < deadline && child.process.isAlive()) {
            for (Path history : child.histories) {
                if (HistoryLines.isCommitting(lastLine(history))) {
                    return true;
                }
            }
            Thread.sleep(2);
        }
        return false;
    }

    /** The last complete line of a history file; empty when there is none yet. */
    private static String lastLine(Path file) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int tail = (int) Math.min(length, 512);
            byte[] bytes = new byte[tail];
            in.seek(length - tail);
            in.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            if (end < 0) {
                return "";
            }
            return text.substring(text.lastIndexOf('\n', end - 1) + 1, end);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Waits until every running child is connected and waiting for the start ({@link RunStart}).
     *
     * @throws IOException a child exited first, or was not ready within {@code timeoutMillis}
     */
    public synchronized void awaitReady(long timeoutMillis) throws IOException, InterruptedException {
        long giveUp = System.currentTimeMillis() + timeoutMillis;
        for (Child child : running) {
            while (!Files.exists(child.readyFile)) {
                if (!child.process.isAlive()) {
                    throw new IOException("child JVM " + child.number + " exited with code "
                            + child.process.exitValue() + " before it was ready; see " + logOf(child.number));
                }
                if (System.currentTimeMillis() > giveUp) {
                    throw new IOException("child JVM " + child.number + " was not ready within " + timeoutMillis / 1000
                            + " s; see " + logOf(child.number));
                }
                Thread.sleep(10);
            }
        }
    }

    private Path logOf(int number) {
        return directory.resolve("child-" + number + ".log");
    }

    public synchronized int started() {
        return started;
    }

    public synchronized int killed() {
        return killed;
    }

    /** Kills that caught a client between asking to commit and learning the outcome. */
    public synchronized int killedMidCommit() {
        return killedMidCommit;
    }

    /**
     * Once the run's deadline has passed: waits for every child to stop on its own (they stop at the deadline), then
     * kills whatever is left. A child that is not ready yet (a replacement started late in the run) is killed at
     * once: it has run no client and would only take seconds to launch, read the start and exit.
     */
    public synchronized int awaitAll(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        int failed = 0;
        for (Child child : running) {
            Process p = child.process;
            if (!Files.exists(child.readyFile)) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                continue;
            }
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
        for (Child child : running) {
            child.process.destroyForcibly();
        }
        running.clear();
    }


    /** A running child JVM, its slot, and the history files of its clients. */
    private record Child(int number, int slot, Process process, List<Path> histories, Path readyFile) {
    }

    /**
     * A child JVM picked for a fault.
     *
     * @param number its number in the run ({@code child-<number>.log})
     * @param slot its client slot ({@link ChaosHBase#clientCommand})
     * @param midCommit whether one of its clients was asking to commit when it was picked
     */
    public record ClientProcess(int number, int slot, ProcessHandle process, boolean midCommit) {
    }
}
