package io.tidemark.processcluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The processes of a cluster, in the order they start: a ZooKeeper ensemble of {@value #ZOOKEEPERS}, an HDFS
 * NameNode and {@value #DATANODES} DataNodes, an HMaster and {@value #REGION_SERVERS} region servers, {@value #TSOS}
 * TSOs, and client slots. Each has its own loopback address ({@link Role#addressOf}) and the usual ports of its kind.
 */
public final class ClusterLayout {

    public static final int ZOOKEEPERS = 3;
    public static final int DATANODES = 3;
    public static final int REGION_SERVERS = 3;
    public static final int TSOS = 2;

    /** ZooKeeper's client port; the HDFS, HBase and TSO ports it serves on. */
    public static final String CLIENT = "client";
    /** ZooKeeper's quorum port (followers to the leader). */
    public static final String PEER = "peer";
    /** ZooKeeper's leader-election port. */
    public static final String ELECTION = "election";
    /** The RPC port of a NameNode, DataNode (its IPC port), HMaster or region server. */
    public static final String RPC = "rpc";
    /** The HTTP port of a NameNode, DataNode or TSO. */
    public static final String HTTP = "http";
    /** A DataNode's block transfer port. */
    public static final String DATA = "data";

    private final Map<String, Member> members = new LinkedHashMap<>();

    private ClusterLayout() {
    }

    /** The cluster with {@code clients} client slots, its ports chosen by {@code ports}. */
    public static ClusterLayout of(int clients, PortChooser ports) {
        ClusterLayout layout = new ClusterLayout();
        for (int i = 1; i <= ZOOKEEPERS; i++) {
            layout.add(Role.ZOOKEEPER, i, ports, CLIENT, 2181, PEER, 2888, ELECTION, 3888);
        }
        layout.add(Role.NAMENODE, 1, ports, RPC, 8020, HTTP, 9870);
        for (int i = 1; i <= DATANODES; i++) {
            // Ports of their own as well: outside a namespace, every DataNode reaches the NameNode from 127.0.0.1,
            // and the NameNode tells DataNodes apart by that address and their transfer port.
            int offset = 10 * (i - 1);
            layout.add(Role.DATANODE, i, ports, DATA, 9866 + offset, HTTP, 9864 + offset, RPC, 9867 + offset);
        }
        layout.add(Role.MASTER, 1, ports, RPC, 16000);
        for (int i = 1; i <= REGION_SERVERS; i++) {
            layout.add(Role.REGION_SERVER, i, ports, RPC, 16020);
        }
        for (int i = 1; i <= TSOS; i++) {
            layout.add(Role.TSO, i, ports, CLIENT, 54758, HTTP, 54759);
        }
        for (int i = 1; i <= clients; i++) {
            layout.add(Role.CLIENT, i, ports);
        }
        return layout;
    }

    private void add(Role role, int n, PortChooser chooser, Object... usualPorts) {
        String address = role.addressOf(n);
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (int i = 0; i < usualPorts.length; i += 2) {
            ports.put((String) usualPorts[i], chooser.choose(address, (Integer) usualPorts[i + 1]));
        }
        members.put(role.nameOf(n), new Member(role.nameOf(n), role, address, ports));
    }

    public Collection<Member> members() {
        return members.values();
    }

    public Member member(String name) {
        Member m = members.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no process of the cluster is called '" + name + "'; there are "
                    + String.join(", ", members.keySet()));
        }
        return m;
    }

    public List<Member> ofRole(Role role) {
        List<Member> of = new ArrayList<>();
        for (Member m : members.values()) {
            if (m.role() == role) {
                of.add(m);
            }
        }
        return of;
    }

    /** The value of {@code hbase.zookeeper.quorum}: every member with its client port. */
    public String zookeeperQuorum() {
        return ofRole(Role.ZOOKEEPER).stream().map(m -> m.endpoint(CLIENT)).collect(Collectors.joining(","));
    }

    /** The HDFS URI of the NameNode, {@code hdfs://host:port}. */
    public String fileSystemUri() {
        return "hdfs://" + ofRole(Role.NAMENODE).get(0).endpoint(RPC);
    }
}
