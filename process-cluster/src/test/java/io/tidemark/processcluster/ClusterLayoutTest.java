package io.tidemark.processcluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ClusterLayoutTest {

    private final ClusterLayout layout = ClusterLayout.of(4, PortChooser.USUAL);

    @Test
    void everyProcessHasALoopbackAddressOfItsOwn() {
        Set<String> addresses = new HashSet<>();
        for (Member m : layout.members()) {
            assertTrue(m.address().startsWith("127.0."), m.toString());
            assertTrue(addresses.add(m.address()), "two processes at " + m.address());
        }
        assertEquals(3 + 1 + 3 + 1 + 3 + 2 + 4, addresses.size());
    }

    @Test
    void dataNodesHaveTransferPortsOfTheirOwn() {
        Set<Integer> ports = new HashSet<>();
        for (Member dn : layout.ofRole(Role.DATANODE)) {
            assertTrue(ports.add(dn.port(ClusterLayout.DATA)), "two DataNodes on port " + dn.port(ClusterLayout.DATA));
        }
    }

    @Test
    void theQuorumNamesEveryZooKeeperServerWithItsPort() {
        assertEquals("127.0.1.1:2181,127.0.1.2:2181,127.0.1.3:2181", layout.zookeeperQuorum());
        assertEquals("hdfs://127.0.2.1:8020", layout.fileSystemUri());
    }

    @Test
    void processesAreFoundByName() {
        assertEquals(Role.REGION_SERVER, layout.member("regionserver2").role());
        assertEquals(Role.REGION_SERVER, Role.ofName("regionserver2"));
        assertEquals(List.of("tso1", "tso2"), layout.ofRole(Role.TSO).stream().map(Member::name).toList());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> layout.member("rs9"));
        assertTrue(e.getMessage().contains("regionserver1"), e.getMessage());
    }
}
