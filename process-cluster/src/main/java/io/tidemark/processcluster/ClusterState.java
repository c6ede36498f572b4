package io.tidemark.processcluster;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What {@code ./tidemark cluster up} leaves for {@code status} and {@code down}, which run in other JVMs: every
 * process's address, ports and pid, in {@link ClusterFiles#stateFile()}.
 *
 * @param members every process that was started, with its pid
 */
public record ClusterState(Map<Member, Long> members) {

    public ClusterState {
        members = new LinkedHashMap<>(members);
    }

    /** The processes of {@code cluster} that run now. */
    public static ClusterState of(ProcessCluster cluster) {
        Map<Member, Long> members = new LinkedHashMap<>();
        for (Member m : cluster.layout().members()) {
            MemberProcess p = cluster.process(m.name());
            if (p != null) {
                members.put(m, p.pid());
            }
        }
        return new ClusterState(members);
    }

    public void write(ClusterFiles files) throws IOException {
        Properties p = new Properties();
        for (Map.Entry<Member, Long> e : members.entrySet()) {
            Member m = e.getKey();
            String prefix = "process." + m.name() + ".";
            p.setProperty(prefix + "pid", Long.toString(e.getValue()));
            p.setProperty(prefix + "address", m.address());
            m.ports().forEach((what, port) -> p.setProperty(prefix + "port." + what, Integer.toString(port)));
        }
        try (Writer out = Files.newBufferedWriter(files.stateFile(), StandardCharsets.UTF_8)) {
            p.store(out, "processes of a Tidemark process cluster (./tidemark cluster)");
        }
    }

    /** The state in {@code files}' folder; empty when no cluster was started there. */
    public static Optional<ClusterState> read(ClusterFiles files) throws IOException {
        if (!Files.exists(files.stateFile())) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(files.stateFile(), StandardCharsets.UTF_8)) {
            p.load(in);
        }
        Map<String, Map<String, String>> byProcess = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            String rest = key.substring("process.".length());
            int dot = rest.indexOf('.');
            byProcess.computeIfAbsent(rest.substring(0, dot), k -> new TreeMap<>()).put(rest.substring(dot + 1),
                    p.getProperty(key));
        }
        List<Member> ordered = new ArrayList<>();
        Map<String, Long> pids = new TreeMap<>();
        for (Map.Entry<String, Map<String, String>> e : byProcess.entrySet()) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            e.getValue().forEach((k, v) -> {
                if (k.startsWith("port.")) {
                    ports.put(k.substring("port.".length()), Integer.parseInt(v));
                }
            });
            ordered.add(new Member(e.getKey(), Role.ofName(e.getKey()), e.getValue().get("address"), ports));
            pids.put(e.getKey(), Long.parseLong(e.getValue().get("pid")));
        }
        ordered.sort(java.util.Comparator.comparing((Member m) -> m.role()).thenComparing(Member::address));
        Map<Member, Long> members = new LinkedHashMap<>();
        for (Member m : ordered) {
            members.put(m, pids.get(m.name()));
        }
        return Optional.of(new ClusterState(members));
    }

    /** The running process of {@code member} of the cluster in {@code files}; empty when it has ended. */
    public Optional<MemberProcess> process(Member member, ClusterFiles files) {
        return MemberProcess.attach(member, members.get(member), files.directory());
    }
}
