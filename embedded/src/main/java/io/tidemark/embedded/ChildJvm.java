package io.tidemark.embedded;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts another JVM like this one (same java, classpath and HBase flags) on a main class: for
 * benchmarks and tests that run a TSO or a production command as a process of its own.
 */
public final class ChildJvm {

    /**
     * Flags for a short-lived JVM on a small machine: the client compiler only and the serial collector, so that
     * starting spends its CPU on loading classes rather than on optimizing compiler and collector threads.
     */
    public static final List<String> QUICK_START_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private ChildJvm() {
    }

    /** {@code java <HBase flags> -Xmx<heap> -cp <this classpath> <mainClass> <args>}. */
    public static List<String> command(String heap, String mainClass, String... args) {
        return command(heap, List.of(), mainClass, args);
    }

    /** {@code java <HBase flags> <jvmFlags> -Xmx<heap> -cp <this classpath> <mainClass> <args>}. */
    public static List<String> command(String heap, List<String> jvmFlags, String mainClass, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // The JDK 17 flags HBase needs (hbase.jvm.flags), whatever else this JVM was started with.
            if (flag.startsWith("--add-opens") || flag.startsWith("--add-exports")
                    || flag.startsWith("-Dorg.apache.hbase.thirdparty")) {
                command.add(flag);
            }
        }
        command.addAll(jvmFlags);
        command.add("-Xmx" + heap);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }
}
