package io.tidemark.processcluster;

import io.tidemark.processcluster.network.NetworkNamespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A partition between two processes of a run's namespace, with real processes and the machine's iptables: it cuts
 * both directions of new and open connections between exactly those two, heals, and leaves nothing behind. Needs
 * root; elsewhere it is skipped, saying why.
 */
@Timeout(120)
class PartitionTest {

    @TempDir
    Path work;

    @Test
    void aCutDropsBothDirectionsBetweenTwoProcessesOnlyAndHealingRestoresThem() throws Exception {
        String unavailable = NetworkNamespace.unavailable();
        assumeTrue(unavailable == null, () -> "no partitions here: " + unavailable);
        String name;
        String output;
        int exitCode;
        try (NetworkNamespace namespace = NetworkNamespace.create()) {
            name = namespace.name();
            List<String> command = new ArrayList<>(JavaCommand.of("64m", List.of(),
                    System.getProperty("java.class.path"), PartitionProbe.class.getName(),
                    List.of(work.toString())));
            Process probe = new ProcessBuilder(namespace.enter(command)).redirectErrorStream(true).start();
            output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(probe.waitFor(60, TimeUnit.SECONDS));
            exitCode = probe.exitValue();
        }
        assertEquals(0, exitCode, output);
        assertTrue(output.contains("cut: client2 does not reach client1"), output);
        assertTrue(output.contains("cut: client3 reaches client1"), output);
        assertTrue(output.contains("healed: the long connection says ok"), output);
        String namespaces = new String(new ProcessBuilder("ip", "netns", "list").start().getInputStream()
                .readAllBytes(), StandardCharsets.UTF_8);
        assertFalse(namespaces.contains(name), "the namespace outlived the run: " + namespaces);
    }
}
