package io.tidemark.tso;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 3: out of file descriptors, accept() failed with "Too many open files" and the TSO stopped
 * accepting for a second each time, while the connection waited unanswered. Now the TSO closes such connections as
 * it accepts them and keeps accepting. The TSO runs in a process of its own, under a low open-file limit, which has
 * used up its descriptors.
 */
@Timeout(120)
class AcceptOutOfDescriptorsTest {

    @Test
    void connectionsArrivingWithoutDescriptorsLeftAreClosedAtOnceAndTheTsoServesOnceThereAreSome() throws Exception {
        Path log = Files.createTempFile("starved-tso", ".log");
        try (ChildTso tso = ChildTso.start("ulimit -n 400", ChildTso.STARVABLE, log, ChildTso.USE_UP_DESCRIPTORS)) {
            for (int i = 0; i < 5; i++) {
                try (Socket socket = new Socket("127.0.0.1", tso.port())) {
                    assertTrue(closedByServer(socket), "connection " + i + " was left waiting");
                }
            }
            assertTrue(logged(log, "Too many open files"), "the TSO logged why");

            tso.freeDescriptors();
            try (TsoTestClient client = TsoTestClient.connected(tso.port())) {
                assertTrue(client.begin() > 0, "the TSO serves again");
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * The descriptor the reserve gives up at a shortage can be taken by another open of the process before the reserve
     * takes it back (seen with strace: the JVM's periodic cgroup reads). Here the open-file limit is lowered to the
     * reserve's own descriptor number, so that the reserve cannot be taken back; once descriptors are free and a
     * connection came in, the next shortage must still close connections at once, not leave them waiting. (A new
     * descriptor gets the lowest free number, and the limit bounds that number: a limit at the lowest free number is a
     * shortage.)
     */
    @Test
    void aReserveLostAtOneShortageIsTakenBackSoTheNextShortageStillClosesConnectionsAtOnce() throws Exception {
        Path log = Files.createTempFile("reserve-lost-tso", ".log");
        try (ChildTso tso = ChildTso.start("true", ChildTso.STARVABLE, log)) {
            long soft = openFileLimit(tso.pid());
            int atRest = descriptors(tso.pid()).size();
            serve(tso);
            awaitDescriptors(tso.pid(), atRest);
            limitOpenFiles(tso.pid(), lowestFreeDescriptor(tso.pid()));
            try (Socket socket = new Socket("127.0.0.1", tso.port())) {
                assertTrue(closedByServer(socket), "the first shortage closed the connection");
            }

            limitOpenFiles(tso.pid(), reserveDescriptor(tso.pid()));
            try (Socket waiting = new Socket("127.0.0.1", tso.port())) {
                assertTrue(reserveGone(tso.pid()), "the reserve was lost");
                limitOpenFiles(tso.pid(), soft);
            }
            serve(tso);
            awaitDescriptors(tso.pid(), atRest);

            limitOpenFiles(tso.pid(), lowestFreeDescriptor(tso.pid()));
            try (Socket socket = new Socket("127.0.0.1", tso.port())) {
                assertTrue(closedByServer(socket), "the next shortage closed the connection at once too");
            }
            limitOpenFiles(tso.pid(), soft);
            serve(tso);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void serve(ChildTso tso) throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(tso.port())) {
            assertTrue(client.begin() > 0, "the TSO serves");
        }
    }

    /**
     * Waits a few seconds for the process to hold {@code count} descriptors again: it closes its side of a connection
     * in its own time, and the descriptors the test looks at next must be the ones it holds at rest. (Without its
     * reserve it holds one fewer: then the wait ends unmet, and the next shortage shows what that costs.)
     */
    private static void awaitDescriptors(long pid, int count) throws IOException, InterruptedException {
        for (int i = 0; i < 100 && descriptors(pid).size() != count; i++) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private static Set<String> descriptorNames(long pid) throws IOException {
        Set<String> names = new HashSet<>();
        for (Path descriptor : descriptors(pid)) {
            names.add(descriptor.getFileName().toString());
        }
        return names;
    }

    /** The number the process's next new descriptor gets. */
    private static long lowestFreeDescriptor(long pid) throws IOException {
        Set<String> used = descriptorNames(pid);
        long free = 0;
        while (used.contains(String.valueOf(free))) {
            free++;
        }
        return free;
    }

    /**
     * The lowest descriptor open on /dev/null: the reserve's, or one below it (then the reserve is above it). Waits for
     * one: the TSO takes its reserve back right after it closed the connection that the test saw closed.
     */
    private static long reserveDescriptor(long pid) throws IOException, InterruptedException {
        for (int i = 0; i < 200; i++) {
            List<Long> onDevNull = onDevNull(pid);
            if (!onDevNull.isEmpty()) {
                return Collections.min(onDevNull);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new IOException("the TSO process holds no descriptor on /dev/null: where is its reserve?");
    }

    /** Whether the process holds no descriptor on /dev/null within a few seconds. */
    private static boolean reserveGone(long pid) throws IOException, InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (onDevNull(pid).isEmpty()) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return false;
    }

    private static List<Long> onDevNull(long pid) throws IOException {
        List<Long> found = new ArrayList<>();
        for (Path descriptor : descriptors(pid)) {
            try {
                if (Files.readSymbolicLink(descriptor).toString().equals("/dev/null")) {
                    found.add(Long.parseLong(descriptor.getFileName().toString()));
                }
            } catch (IOException closedMeanwhile) {
                // Not the reserve, which stays open.
            }
        }
        return found;
    }

    private static List<Path> descriptors(long pid) throws IOException {
        try (Stream<Path> descriptors = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return descriptors.collect(Collectors.toList());
        }
    }

    private static long openFileLimit(long pid) throws IOException, InterruptedException {
        return Long.parseLong(prlimit(pid, "--nofile", "--raw", "--noheadings", "--output=SOFT").trim());
    }

    /** Sets the process's soft open-file limit; descriptors it holds above the limit stay open. */
    private static void limitOpenFiles(long pid, long limit) throws IOException, InterruptedException {
        prlimit(pid, "--nofile=" + limit + ":");
    }

    private static String prlimit(long pid, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("prlimit", "--pid", String.valueOf(pid)));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** Whether {@code text} appears in the log within a few seconds (the process writes it in its own time). */
    private static boolean logged(Path log, String text) throws IOException, InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (Files.readString(log).contains(text)) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return false;
    }

    private static boolean closedByServer(Socket socket) throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
