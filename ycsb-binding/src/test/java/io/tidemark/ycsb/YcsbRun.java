package io.tidemark.ycsb;

import io.tidemark.embedded.ChildJvm;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs YCSB's own {@code site.ycsb.Client} in a child JVM, exactly as a user would (its main ends with System.exit,
 * so it cannot run inside the test JVM), and parses the report it exports.
 */
final class YcsbRun {

    private static final long TIMEOUT_SECONDS = 120;

    private final Map<String, Map<String, String>> report;
    private final String output;

    private YcsbRun(Map<String, Map<String, String>> report, String output) {
        this.report = report;
        this.output = output;
    }

    /**
     * Runs {@code -load} or {@code -t} with the workload file {@code workload} ({@code -P}) and {@code properties}
     * ({@code -p}, which YCSB lets override the file), and returns its report.
     */
    static YcsbRun run(boolean load, Path workload, Properties properties, Path workDir)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path exportFile = Files.createTempFile(workDir, load ? "load-" : "run-", ".txt");
        Path log = Files.createTempFile(workDir, load ? "load-" : "run-", ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // A short run: a quick-starting JVM matters more than peak compiled speed.
        command.addAll(ChildJvm.QUICK_START_FLAGS);
        command.addAll(hbaseJvmFlags());
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        command.add("site.ycsb.Client");
        command.add(load ? "-load" : "-t");
        command.add("-db");
        command.add(TidemarkClient.class.getName());
        command.add("-P");
        command.add(workload.toString());
        for (String key : properties.stringPropertyNames()) {
            command.add("-p");
            command.add(key + "=" + properties.getProperty(key));
        }
        command.add("-p");
        command.add("exportfile=" + exportFile);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("YCSB did not finish within " + TIMEOUT_SECONDS + " s; its output:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new AssertionError("YCSB exited with " + process.exitValue() + "; its output:\n" + output);
        }
        return new YcsbRun(parse(Files.readAllLines(exportFile, StandardCharsets.UTF_8)), output);
    }

    /** The report's value of {@code metric} in {@code section} (e.g. "READ", "Return=OK"), or 0 when absent. */
    long count(String section, String metric) {
        String value = report.getOrDefault(section, Map.of()).get(metric);
        return value == null ? 0 : (long) Double.parseDouble(value);
    }

    Map<String, Map<String, String>> report() {
        return report;
    }

    /** Client output plus report, for assertion messages. */
    String describe() {
        return "report " + report + "\noutput:\n" + output;
    }

    /** Lines look like {@code [READ], Return=OK, 150}. */
    private static Map<String, Map<String, String>> parse(List<String> lines) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        for (String line : lines) {
            String[] parts = line.split(", ", 3);
            if (parts.length == 3 && parts[0].startsWith("[") && parts[0].endsWith("]")) {
                sections.computeIfAbsent(parts[0].substring(1, parts[0].length() - 1), s -> new LinkedHashMap<>())
                        .put(parts[1], parts[2].trim());
            }
        }
        return sections;
    }

    /** The JDK 17 flags HBase needs (the root pom's hbase.jvm.flags, which surefire gave this JVM). */
    private static List<String> hbaseJvmFlags() {
        List<String> flags = new ArrayList<>();
        Iterator<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments().iterator();
        while (args.hasNext()) {
            String arg = args.next();
            if (arg.equals("--add-opens") || arg.equals("--add-exports")) {
                flags.add(arg);
                flags.add(args.next());
            } else if (arg.startsWith("--add-opens=") || arg.startsWith("--add-exports=")
                    || arg.startsWith("-Dorg.apache.hbase.thirdparty.")) {
                flags.add(arg);
            }
        }
        return flags;
    }
}
