package io.tidemark.processcluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The command line of one JVM of the cluster: this JDK's {@code java}, a small heap, the serial collector (the least
 * memory and the fewest threads for a heap this size), the client compiler only (a dozen JVMs share a developer's few
 * cores: C2's compiles would take their CPU while the cluster starts and the faults run), the flags HBase needs on
 * JDK 17, IPv4 only (every address is a 127.x one), then the classpath and main class.
 */
final class JavaCommand {

    private JavaCommand() {
    }

    static List<String> of(String heap, List<String> flags, List<Path> classpath, String mainClass, List<String> args) {
        return of(heap, flags, classpath.stream().map(Path::toString).collect(Collectors.joining(
                java.io.File.pathSeparator)), mainClass, args);
    }

    static List<String> of(String heap, List<String> flags, String classpath, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + heap);
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.addAll(flags);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }
}
