package io.tidemark.processcluster;

import io.tidemark.processcluster.network.NamespaceNetwork;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs inside a namespace of {@link PartitionTest}: three processes A, B and C, each an echo server on its own
 * address, and a long connection from B to A. It cuts A off from B and heals them, checking after each step who
 * reaches whom (new connections from B to A, A to B and C to A, and the long connection's echoes). Prints what it
 * saw and exits 0 when each step was as it must be, 1 otherwise.
 */
public final class PartitionProbe {

    private static final int PORT = 7000;
    private static final long SETTLE_MILLIS = 1500;
    private static final long RETRANSMIT_MILLIS = 15_000;
    private static final int REACH_ATTEMPTS = 5;

    private final NamespaceNetwork network;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    private PartitionProbe(NamespaceNetwork network) {
        this.network = network;
    }

    public static void main(String[] args) throws Exception {
        NamespaceNetwork network = NamespaceNetwork.ofThisProcess();
        if (network == null) {
            System.out.println("not started inside a namespace");
            System.exit(2);
        }
        PartitionProbe probe = new PartitionProbe(network);
        try {
            probe.run(Path.of(args[0]));
        } finally {
            probe.processes.forEach(Process::destroyForcibly);
        }
        System.out.println(probe.failures.isEmpty() ? "partition probe passed" : "FAILED: " + probe.failures);
        System.exit(probe.failures.isEmpty() ? 0 : 1);
    }

    private void run(Path work) throws Exception {
        ClusterLayout layout = ClusterLayout.of(3, PortChooser.USUAL);
        Member a = layout.member("client1");
        Member b = layout.member("client2");
        Member c = layout.member("client3");
        for (Member m : List.of(a, b, c)) {
            start(m, work.resolve(m.name() + ".log"), EchoServer.class, m.address(), Integer.toString(PORT));
        }
        Thread.sleep(SETTLE_MILLIS);
        Path longConnection = work.resolve("long-connection.log");
        start(b, longConnection, EchoCheck.class, a.address(), Integer.toString(PORT), "keep");
        Thread.sleep(SETTLE_MILLIS);
        expect("before the cut", true, b, a);
        expect("before the cut", true, a, b);
        expect("before the cut", true, c, a);
        expectLast("before the cut", longConnection, "ok");

        network.cut(a, b);
        Thread.sleep(SETTLE_MILLIS);
        expect("cut", false, b, a);
        expect("cut", false, a, b);
        expect("cut", true, c, a);
        expect("cut", true, c, b);
        expectLast("cut", longConnection, "lost");

        network.heal(b, a);
        Thread.sleep(SETTLE_MILLIS);
        expect("healed", true, b, a);
        expect("healed", true, a, b);
        expectLast("healed", longConnection, "ok");
    }

    /**
     * Whether {@code from} reaches {@code to}, asked up to {@value #REACH_ATTEMPTS} times where it should: on a loaded
     * machine one echo may take longer than a check waits (a "before the cut" check failed so at load 20), and one
     * answer proves the way open; a way that should be cut must fail its one check.
     */
    private void expect(String step, boolean reaches, Member from, Member to) throws Exception {
        boolean reached = false;
        for (int attempt = 0; !reached && attempt < (reaches ? REACH_ATTEMPTS : 1); attempt++) {
            Process check = new ProcessBuilder(network.launch(from, java(EchoCheck.class, to.address(),
                    Integer.toString(PORT)))).inheritIO().start();
            reached = check.waitFor() == 0;
        }
        String seen = step + ": " + from.name() + " " + (reached ? "reaches " : "does not reach ") + to.name();
        System.out.println(seen);
        if (reached != reaches) {
            failures.add(seen);
        }
    }

    /**
     * The long connection's last line, waiting up to {@value #RETRANSMIT_MILLIS} ms for the expected one: after a
     * heal, TCP resends only when its backed-off retransmission timer fires.
     */
    private void expectLast(String step, Path log, String expected) throws Exception {
        long deadline = System.currentTimeMillis() + RETRANSMIT_MILLIS;
        String last;
        do {
            List<String> lines = Files.readAllLines(log);
            last = lines.isEmpty() ? "(nothing)" : lines.get(lines.size() - 1);
            Thread.sleep(100);
        } while (!last.equals(expected) && System.currentTimeMillis() < deadline);
        String seen = step + ": the long connection says " + last;
        System.out.println(seen);
        if (!last.equals(expected)) {
            failures.add(seen);
        }
    }

    private void start(Member m, Path log, Class<?> main, String... args) throws Exception {
        processes.add(new ProcessBuilder(network.launch(m, java(main, args))).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start());
    }

    private static List<String> java(Class<?> main, String... args) {
        return JavaCommand.of("32m", List.of(), System.getProperty("java.class.path"), main.getName(),
                List.of(args));
    }
}
