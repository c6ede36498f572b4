package io.tidemark.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Tidemark as an operator installs it: the release tarball unpacked into a folder, run through {@code bin/tidemark}.
 * Every command is a process of its own, with its outputs kept under {@code logDir}.
 */
final class Installation {

    /** Heap of every {@code bin/tidemark} JVM: the test's processes share a small machine. */
    private static final String HEAP = "512m";

    private final Path home;
    private final Path logDir;
    private int commands;

    private Installation(Path home, Path logDir) {
        this.home = home;
        this.logDir = logDir;
    }

    /** Unpacks {@code tarball} into {@code dir} with {@code tar}, as an operator would; it holds one top folder. */
    static Installation unpack(Path tarball, Path dir, Path logDir) {
        ChildProcess.Result untar = ChildProcess.run("tar", List.of("tar", "-xzf", tarball.toString(), "-C",
                dir.toString()), Map.of(), logDir, Duration.ofMinutes(2));
        if (untar.exitCode() != 0) {
            throw new AssertionError("could not unpack " + tarball + "\n" + untar.description());
        }
        try (Stream<Path> top = Files.list(dir)) {
            List<Path> folders = top.toList();
            if (folders.size() != 1 || !Files.isDirectory(folders.get(0))) {
                throw new AssertionError(tarball + " must hold exactly one top folder, holds " + folders);
            }
            return new Installation(folders.get(0), logDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path home() {
        return home;
    }

    /** The one jar of {@code coprocessor/}: what the operator copies to the region servers. */
    Path coprocessorBundle() {
        try (Stream<Path> files = Files.list(home.resolve("coprocessor"))) {
            List<Path> jars = files.filter(f -> f.toString().endsWith(".jar")).toList();
            if (jars.size() != 1) {
                throw new AssertionError("coprocessor/ must hold exactly one jar, holds " + jars);
            }
            return jars.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code bin/tidemark args...} to its end (named {@code name} in the logs). */
    ChildProcess.Result run(String name, Duration timeout, String... args) {
        return ChildProcess.run(uniqueName(name), command(args), environment(), logDir, timeout);
    }

    /** Starts {@code bin/tidemark args...} in the background. */
    ChildProcess start(String name, String... args) {
        return ChildProcess.start(uniqueName(name), command(args), environment(), logDir);
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin").resolve("tidemark").toString());
        command.addAll(List.of(args));
        return command;
    }

    /** What conf/tidemark-env.sh lets an operator set: the JDK, the heap and the log folder. */
    private Map<String, String> environment() {
        return Map.of("JAVA_HOME", System.getProperty("java.home"),
                "TIDEMARK_HEAP", HEAP,
                "TIDEMARK_LOG_DIR", logDir.resolve("tidemark-logs").toString());
    }

    private synchronized String uniqueName(String name) {
        commands++;
        return String.format("%02d-%s", commands, name);
    }
}
