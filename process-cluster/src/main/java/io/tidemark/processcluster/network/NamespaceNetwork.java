package io.tidemark.processcluster.network;

import io.tidemark.processcluster.Member;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The network inside a namespace of the run's own ({@link NetworkNamespace}), seen from a process that runs in it.
 * Each cluster process runs in a cgroup of its own, and a NAT rule gives every connection it opens its own loopback
 * address as source: so every packet between two processes carries both their addresses, and a partition is two
 * iptables rules matching a connection's addresses (its reply tuple in conntrack), whichever side opened it. The
 * rules exist only in this namespace; the machine's own tables are never touched.
 */
public final class NamespaceNetwork implements ProcessNetwork {

    private final String namespace;
    private final Path cgroupDirectory;
    private final String cgroupPath;
    private final Set<Member> prepared = new LinkedHashSet<>();
    private final Set<String> cuts = new LinkedHashSet<>();

    /**
     * @param namespace the namespace's name: every iptables command names it, so no rule can land elsewhere
     * @param cgroupDirectory the run's cgroup (v2) folder, in which each process gets one of its own
     * @param cgroupPath the same folder's path from the root of the cgroup hierarchy, as iptables names it
     */
    NamespaceNetwork(String namespace, Path cgroupDirectory, String cgroupPath) {
        this.namespace = namespace;
        this.cgroupDirectory = cgroupDirectory;
        this.cgroupPath = cgroupPath;
    }

    /**
     * The network of this process's namespace when it was started by {@link NetworkNamespace#enter}; null when it was
     * not.
     */
    public static NamespaceNetwork ofThisProcess() {
        String namespace = System.getProperty(NetworkNamespace.NAME_PROPERTY);
        String directory = System.getProperty(NetworkNamespace.CGROUP_DIRECTORY_PROPERTY);
        String path = System.getProperty(NetworkNamespace.CGROUP_PATH_PROPERTY);
        if (namespace == null || directory == null || path == null) {
            return null;
        }
        return new NamespaceNetwork(namespace, Path.of(directory), path);
    }

    @Override
    public synchronized List<String> launch(Member member, List<String> command) throws IOException {
        Path cgroup = cgroupDirectory.resolve(member.name());
        if (prepared.add(member)) {
            Files.createDirectories(cgroup);
            iptables("-t", "nat", "-A", "POSTROUTING", "-m", "cgroup", "--path", cgroupPath + "/" + member.name(),
                    "-j", "SNAT", "--to-source", member.address());
        }
        List<String> launched = new ArrayList<>(List.of("sh", "-c",
                "echo $$ > '" + cgroup.resolve("cgroup.procs") + "' && exec \"$@\"", member.name()));
        launched.addAll(command);
        return launched;
    }

    @Override
    public String partitionsUnavailable() {
        return null;
    }

    @Override
    public synchronized void cut(Member a, Member b) throws IOException {
        if (cuts.add(key(a, b))) {
            rules("-I", a, b);
        }
    }

    @Override
    public synchronized void heal(Member a, Member b) throws IOException {
        if (cuts.remove(key(a, b))) {
            rules("-D", a, b);
        }
    }

    @Override
    public synchronized void healAll() throws IOException {
        for (String cut : new ArrayList<>(cuts)) {
            String[] addresses = cut.split("\\|");
            dropRule("-D", addresses[0], addresses[1]);
            dropRule("-D", addresses[1], addresses[0]);
            cuts.remove(cut);
        }
    }

    /** The cgroups go with the namespace ({@link NetworkNamespace#close}), which outlives every process. */
    @Override
    public void close() {
    }

    private void rules(String action, Member a, Member b) throws IOException {
        dropRule(action, a.address(), b.address());
        dropRule(action, b.address(), a.address());
    }

    /** Drops every packet of connections opened from {@code from} to {@code to}, in both directions. */
    private void dropRule(String action, String from, String to) throws IOException {
        iptables(action, "INPUT", "-m", "conntrack", "--ctreplsrc", to, "--ctrepldst", from, "-j", "DROP");
    }

    private void iptables(String... arguments) throws IOException {
        Commands.run(NetworkNamespace.inside(namespace, "iptables", arguments));
    }

    private static String key(Member a, Member b) {
        return a.address().compareTo(b.address()) < 0 ? a.address() + "|" + b.address()
                : b.address() + "|" + a.address();
    }
}
