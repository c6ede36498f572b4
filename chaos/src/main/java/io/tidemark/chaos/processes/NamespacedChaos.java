package io.tidemark.chaos.processes;

import io.tidemark.chaos.cli.ChaosCommand;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.processcluster.network.NetworkNamespace;

import java.io.IOException;
import java.util.List;

/**
 * A chaos run on the process cluster, inside a network namespace of its own: this JVM creates the namespace, runs the
 * same command in a JVM inside it (which starts the cluster there, so that partitions are iptables rules of that
 * namespace only), waits for it, and then removes the namespace with every process still in it, also when the run
 * failed or this JVM is stopped (a shutdown hook).
 */
public final class NamespacedChaos {

    /** Heap of the JVM inside: it runs the workload's bookkeeping and checks the whole history at the end. */
    private static final String HEAP = "1g";

    private NamespacedChaos() {
    }

    /** Main class of the JVM inside the namespace: the chaos command with the same arguments. */
    public static void main(String[] args) {
        System.exit(io.tidemark.cli.Main.configured(new ChaosCommand()).execute(args));
    }

    /** Runs {@code ./tidemark chaos args} inside a new namespace; returns its exit code. */
    public static int run(NetworkNamespace namespace, List<String> args) throws IOException, InterruptedException {
        Thread cleanUp = new Thread(namespace::close, "chaos-remove-namespace");
        Runtime.getRuntime().addShutdownHook(cleanUp);
        try {
            List<String> command = namespace.enter(ChildJvm.command(HEAP, NamespacedChaos.class.getName(),
                    args.toArray(new String[0])));
            Process inside = new ProcessBuilder(command).inheritIO().start();
            return inside.waitFor();
        } finally {
            namespace.close();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanUp);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook runs (again) and finds nothing left.
            }
        }
    }
}
