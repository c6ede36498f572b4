package io.tidemark.processcluster.network;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A network namespace a run creates for itself ({@code ip netns add tidemark-<pid>}), with a cgroup (v2) folder of
 * the same name for its processes. The run's main JVM runs inside it ({@link #enter}); the cluster's processes, which
 * that JVM starts, inherit it, and see only its own loopback interface, where every 127.0.0.0/8 address is theirs.
 * Closing it kills every process still inside, removes the cgroups and deletes the namespace, with every iptables
 * rule that lived in it. Namespaces left by a run whose JVM died are removed by the next one.
 */
public final class NetworkNamespace implements AutoCloseable {

    /**
     * System properties that tell the JVM started inside ({@link NamespaceNetwork#ofThisProcess}) its namespace and
     * cgroup.
     */
    static final String NAME_PROPERTY = "tidemark.cluster.netns";
    static final String CGROUP_DIRECTORY_PROPERTY = "tidemark.cluster.cgroup.directory";
    static final String CGROUP_PATH_PROPERTY = "tidemark.cluster.cgroup.path";

    private static final String PREFIX = "tidemark-";
    private static final String[] TOOLS = {"ip", "iptables", "nsenter"};
    private static final long KILL_WAIT_MILLIS = 30_000;

    private final String name;
    private final Path cgroupRoot;

    private NetworkNamespace(String name, Path cgroupRoot) {
        this.name = name;
        this.cgroupRoot = cgroupRoot;
    }

    /** Null when this machine lets a run create a namespace of its own; otherwise why not, in a sentence. */
    public static String unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "network namespaces need Linux";
        }
        if (!isRoot()) {
            return "not root: creating a network namespace and iptables rules in it needs root";
        }
        for (String tool : TOOLS) {
            if (!Commands.available(tool)) {
                return "no " + tool + " on the PATH (apt-get install -y iptables iproute2 util-linux)";
            }
        }
        if (cgroupV2Root().isEmpty()) {
            return "no cgroup v2 hierarchy mounted, which gives each process its own source address";
        }
        return null;
    }

    /**
     * Creates the namespace of this JVM (after removing those of runs whose JVM is gone) and proves that it can
     * partition: a rule of each kind the run uses is added and removed once.
     *
     * @throws IOException when the machine refuses (the message says what failed); nothing is left behind
     */
    public static NetworkNamespace create() throws IOException {
        String reason = unavailable();
        if (reason != null) {
            throw new IOException(reason);
        }
        Path root = cgroupV2Root().orElseThrow();
        removeAbandoned(root);
        NetworkNamespace ns = new NetworkNamespace(PREFIX + ProcessHandle.current().pid(), root);
        try {
            Commands.run("ip", "netns", "add", ns.name);
            Commands.run("ip", "-n", ns.name, "link", "set", "lo", "up");
            Files.createDirectories(ns.cgroupDirectory());
            ns.probe();
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    public String name() {
        return name;
    }

    /**
     * {@code command} (a {@code java} command line) run inside the namespace, told where its cgroups go: the JVM
     * then builds its {@link NamespaceNetwork} with {@link NamespaceNetwork#ofThisProcess()}.
     */
    public List<String> enter(List<String> command) {
        if (command.isEmpty() || !command.get(0).endsWith("java")) {
            throw new IllegalArgumentException("not a java command line: " + command);
        }
        List<String> entered = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + name, command.get(0),
                "-D" + NAME_PROPERTY + "=" + name, "-D" + CGROUP_DIRECTORY_PROPERTY + "=" + cgroupDirectory(),
                "-D" + CGROUP_PATH_PROPERTY + "=" + cgroupPath()));
        entered.addAll(command.subList(1, command.size()));
        return entered;
    }

    /** Kills every process inside, removes the cgroups and deletes the namespace. Never throws. */
    @Override
    public void close() {
        destroy(name, cgroupRoot);
    }

    private Path cgroupDirectory() {
        return cgroupRoot.resolve(name);
    }

    private String cgroupPath() {
        return "/" + name;
    }

    /** {@code tool arguments...} run in the network namespace {@code namespace}. */
    static List<String> inside(String namespace, String tool, String... arguments) {
        List<String> command = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + namespace, tool));
        command.addAll(List.of(arguments));
        return command;
    }

    /** Adds and removes one rule of each kind, in the namespace, so that a run fails at once where iptables cannot. */
    private void probe() throws IOException {
        List<List<String>> rules = List.of(
                List.of("-t", "nat", "POSTROUTING", "-m", "cgroup", "--path", cgroupPath(), "-j", "SNAT",
                        "--to-source", "127.0.0.2"),
                List.of("-t", "filter", "INPUT", "-m", "conntrack", "--ctreplsrc", "127.0.0.2", "--ctrepldst",
                        "127.0.0.3", "-j", "DROP"));
        for (List<String> rule : rules) {
            for (String action : List.of("-A", "-D")) {
                List<String> arguments = new ArrayList<>(rule.subList(0, 2));
                arguments.add(action);
                arguments.addAll(rule.subList(2, rule.size()));
                Commands.run(inside(name, "iptables", arguments.toArray(new String[0])));
            }
        }
    }

    private static void destroy(String name, Path cgroupRoot) {
        List<ProcessHandle> inside = new ArrayList<>();
        try {
            for (String pid : Commands.run("ip", "netns", "pids", name).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(inside::add);
                }
            }
        } catch (IOException e) {
            // No such namespace (any more): nothing runs in it.
        }
        Path cgroups = cgroupRoot.resolve(name);
        inside.addAll(processesIn(cgroups));
        inside.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.currentTimeMillis() + KILL_WAIT_MILLIS;
        for (ProcessHandle p : inside) {
            while (p.isAlive() && System.currentTimeMillis() < deadline) {
                sleep();
            }
        }
        removeCgroups(cgroups, deadline);
        try {
            Commands.run("ip", "netns", "del", name);
        } catch (IOException e) {
            // Already gone.
        }
    }

    private static List<ProcessHandle> processesIn(Path cgroups) {
        List<ProcessHandle> found = new ArrayList<>();
        for (Path folder : cgroupFolders(cgroups)) {
            try {
                for (String pid : Files.readAllLines(folder.resolve("cgroup.procs"), StandardCharsets.UTF_8)) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(found::add);
                    }
                }
            } catch (IOException e) {
                // A cgroup that went away meanwhile holds no process.
            }
        }
        return found;
    }

    /**
     * The run's cgroup folder and its members' folders (one level: {@link NamespaceNetwork} makes one per process),
     * members first. Listed without walking their files: the kernel removes a cgroup's files with it, and a walk
     * (which reads every file's attributes) failed with NoSuchFileException on a member's memory.pressure when two
     * runs removed the same abandoned namespace at once, which stopped the second run at its start.
     */
    private static List<Path> cgroupFolders(Path cgroups) {
        List<Path> folders = new ArrayList<>();
        if (!Files.isDirectory(cgroups)) {
            return folders;
        }
        try (Stream<Path> members = Files.list(cgroups)) {
            members.filter(Files::isDirectory).forEach(folders::add);
        } catch (IOException | UncheckedIOException e) {
            // The run's cgroup went away meanwhile: none of its members is left either.
        }
        folders.add(cgroups);
        return folders;
    }

    /** Removes the run's cgroup folders, members first (a cgroup goes once its last process has exited). */
    private static void removeCgroups(Path cgroups, long deadline) {
        List<Path> folders = cgroupFolders(cgroups);
        for (Path folder : folders) {
            while (true) {
                try {
                    Files.deleteIfExists(folder);
                    break;
                } catch (IOException e) {
                    if (System.currentTimeMillis() > deadline) {
                        break;
                    }
                    sleep();
                }
            }
        }
    }

    /** Namespaces (and their cgroups) of runs whose JVM has ended: a JVM killed before it could close its own. */
    private static void removeAbandoned(Path cgroupRoot) throws IOException {
        for (String line : Commands.run("ip", "netns", "list").split("\n")) {
            String ns = line.trim().split("\\s+")[0];
            if (!ns.startsWith(PREFIX)) {
                continue;
            }
            String pid = ns.substring(PREFIX.length());
            if (pid.matches("[0-9]+") && ProcessHandle.of(Long.parseLong(pid)).isEmpty()) {
                destroy(ns, cgroupRoot);
            }
        }
    }

    /** Where cgroup v2 is mounted (on a hybrid system, next to the v1 controllers). */
    private static Optional<Path> cgroupV2Root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/mounts"), StandardCharsets.UTF_8)) {
                String[] fields = line.split(" ");
                if (fields.length > 2 && fields[2].equals("cgroup2") && Files.isWritable(Path.of(fields[1]))) {
                    return Optional.of(Path.of(fields[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Optional.empty();
    }

    private static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
