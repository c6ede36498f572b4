package io.tidemark.tso;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
