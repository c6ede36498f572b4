package io.tidemark.embedded;

import io.tidemark.testing.SharedMiniCluster;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Issue 11: the TSO of {@code ./tidemark server} (an embedded cluster) listens on loopback only, like its HBase. */
class EmbeddedClusterTest {

    @Test
    void theTsoListensOnLoopbackOnlyByDefault() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().hbaseConnection(SharedMiniCluster.connection())
                .tableNamespace("embedded_loopback").start()) {
            assertEquals("127.0.0.1", cluster.tsoAddress().host());
            assertEquals(cluster.tsoAddress().toString(),
                    cluster.clientConfig().hadoopConfiguration().get("tidemark.client.tso.address"));
            Optional<InetAddress> external = externalAddress();
            if (external.isPresent()) {
                try (Socket socket = new Socket()) {
                    assertThrows(IOException.class, () -> socket.connect(
                            new InetSocketAddress(external.get(), cluster.tso().port()), 2000),
                            "the TSO must not be reachable on " + external.get());
                }
            }
        }
    }

    /** An IPv4 address of this machine other than loopback, if it has one. */
    private static Optional<InetAddress> externalAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address instanceof Inet4Address) {
                    return Optional.of(address);
                }
            }
        }
        return Optional.empty();
    }
}
