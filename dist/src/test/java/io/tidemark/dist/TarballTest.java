package io.tidemark.dist;

import io.tidemark.version.TidemarkVersion;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The release tarball has the layout of the packaging contract (docs/operations.md), no test code, and a launcher
 * that works once unpacked. Runs after the tarball is built (package phase, see the pom).
 */
class TarballTest {

    private static final String VERSION = TidemarkVersion.current();
    private static final String LINE = System.getProperty("tidemark.hbase.line");
    private static final String TOP = "tidemark-" + VERSION + "-hbase-" + LINE + "/";
    private static final String BUNDLE = "tidemark-coprocessor-bundle-" + VERSION + "-hbase-" + LINE + ".jar";
    private static final List<String> COMMANDS = List.of("tso", "table", "sweep", "status", "version", "ycsb");
    /** What must never be on a production classpath: test jars, test frameworks, mini-clusters, development tools. */
    private static final List<String> BANNED_IN_LIB = List.of("-tests.jar", "junit", "opentest4j",
            "hbase-testing-util", "hadoop-minicluster", "minikdc", "tidemark-test-fixtures", "tidemark-embedded",
            "tidemark-integration-tests", "tidemark-dev-cli", "tidemark-chaos", "tidemark-benchmarks",
            // Apache Omid, the benchmarks' comparison (bench e2e and tso with --omid)
            "omid-");

    private static Path tarball;
    private static Map<String, TarGz.Entry> entries;

    @BeforeAll
    static void readTarball() throws IOException {
        tarball = Paths.get(System.getProperty("tidemark.tarball"));
        assertTrue(Files.isRegularFile(tarball), tarball + " is not built");
        entries = TarGz.read(tarball).stream().collect(Collectors.toMap(e -> e.name().replaceAll("/$", ""),
                Function.identity()));
    }

    @Test
    void everythingIsUnderOneTopFolderNamedAfterTheVersionAndTheHBaseLine() {
        List<String> outside = entries.keySet().stream().filter(n -> !(n + "/").startsWith(TOP))
                .collect(Collectors.toList());
        assertEquals(List.of(), outside);
        assertEquals(Paths.get("tidemark-" + VERSION + "-hbase-" + LINE + "-bin.tar.gz"), tarball.getFileName());
    }

    @Test
    void tarballHasTheContractsLayout() {
        for (String file : List.of("bin/tidemark", "conf/tidemark-site.xml", "conf/log4j2.xml", "conf/tidemark-env.sh",
                "conf/tidemark-tso.service", "coprocessor/" + BUNDLE,
                "lib/tidemark-cli-" + VERSION + ".jar", "lib/tidemark-tso-server-" + VERSION + ".jar",
                "lib/tidemark-hbase-client-ext-" + VERSION + ".jar", "lib/tidemark-common-" + VERSION + ".jar",
                "lib/hbase-client-" + System.getProperty("tidemark.hbase.version") + ".jar", "lib/ycsb/tidemark-ycsb-binding-" + VERSION + ".jar",
                "lib/ycsb/ycsb-core-0.17.0.jar", "ycsb/workloads/workloada", "ycsb/workloads/paper")) {
            TarGz.Entry entry = entries.get(TOP + file);
            assertNotNull(entry, file + " is missing");
            assertFalse(entry.directory(), file);
            assertTrue(entry.size() > 0, file + " is empty");
        }
        assertEquals(List.of(), names("coprocessor/").stream()
                .filter(n -> !n.equals(BUNDLE)).collect(Collectors.toList()),
                "coprocessor/ holds the bundle only");
    }

    @Test
    void libHoldsNoTestCodeNoMiniClusterNoDevelopmentToolsAndNoOmid() {
        List<String> jars = new ArrayList<>(names("lib/"));
        jars.addAll(names("lib/ycsb/"));
        assertTrue(jars.size() > 50, jars.toString());
        List<String> banned = jars.stream().filter(j -> BANNED_IN_LIB.stream().anyMatch(j::contains))
                .collect(Collectors.toList());
        assertEquals(List.of(), banned);
    }

    @Test
    void libLogsThroughLog4j2Only() {
        List<String> jars = names("lib/");
        for (String expected : List.of("log4j-core-", "log4j-slf4j-impl-", "log4j-1.2-api-", "slf4j-api-")) {
            assertTrue(jars.stream().anyMatch(j -> j.startsWith(expected)), expected + " is missing");
        }
        // A second SLF4J backend, or log4j 1, would take over or ignore conf/log4j2.xml.
        assertEquals(List.of(), jars.stream().filter(j -> j.startsWith("reload4j") || j.startsWith("slf4j-reload4j")
                || j.startsWith("log4j-1.2.") || j.startsWith("logback")).collect(Collectors.toList()));
    }

    @Test
    void ycsbFolderHoldsOnlyWhatTheBindingAddsToLib() {
        List<String> lib = names("lib/");
        for (String jar : names("lib/ycsb/")) {
            assertFalse(lib.contains(jar), jar + " is in lib/ and lib/ycsb/");
        }
    }

    @Test
    void launcherIsExecutableAndCarriesTheBuildsJvmFlags() {
        TarGz.Entry launcher = entries.get(TOP + "bin/tidemark");
        assertEquals(0755, launcher.mode() & 0777, "mode of bin/tidemark: " + Integer.toOctalString(launcher.mode()));
        String script = launcher.text();
        assertTrue(script.startsWith("#!/usr/bin/env bash\n"), script);
        assertTrue(script.contains("hbase_flags='" + System.getProperty("tidemark.hbase.jvm.flags") + "'"),
                "the root pom's hbase.jvm.flags, filled in");
        assertTrue(script.contains("-XX:+ExitOnOutOfMemoryError"));
        assertFalse(script.contains("@hbase.jvm.flags@") || script.contains("@project.version@"), "unfilled");
    }

    @Test
    void readmeNamesTheVersionAndNothingIsLeftUnfilled() {
        assertTrue(entries.get(TOP + "README.md").text().startsWith("# Tidemark " + VERSION + "\n"));
        List<String> unfilled = entries.values().stream().filter(e -> !e.name().endsWith(".jar"))
                .filter(e -> e.text().matches("(?s).*@(project\\.version|hbase\\.jvm\\.flags)@.*"))
                .map(TarGz.Entry::name).collect(Collectors.toList());
        assertEquals(List.of(), unfilled);
    }

    @Test
    void unpackedLauncherPrintsTheVersion(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        Run version = run(home, "version");
        assertEquals(0, version.exitCode(), version.toString());
        assertEquals("tidemark " + VERSION, version.out().trim());
        assertEquals("", version.err(), "nothing on standard error: no logging or JVM warnings");
    }

    @Test
    void unpackedLauncherListsEveryCommand(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        Run help = run(home, "--help");
        assertEquals(0, help.exitCode(), help.toString());
        Run unknown = run(home, "quickstart");
        assertEquals(2, unknown.exitCode(), unknown.toString());
        assertTrue(unknown.err().contains("unknown command 'quickstart'"), unknown.toString());
        Run missing = run(home);
        assertEquals(2, missing.exitCode(), missing.toString());
        for (String command : COMMANDS) {
            assertTrue(help.out().contains("\n  " + command + " "), command + " in " + help.out());
            assertTrue(unknown.err().contains("\n  " + command + " "), command + " in " + unknown.err());
        }
        Run ycsb = run(home, "ycsb");
        assertEquals(2, ycsb.exitCode(), "ycsb without arguments is a usage error: " + ycsb);
    }

    @Test
    void unpackedLauncherReportsAnUnreachableTsoInOneLine(@TempDir Path dir) throws Exception {
        Path home = unpack(dir);
        Run status = run(home, "status", "--tso", "127.0.0.1:1");
        assertEquals(1, status.exitCode(), status.toString());
        assertFalse((status.out() + status.err()).contains("\tat "), "no stack trace: " + status);
        assertFalse(status.err().contains("StatusLogger") || status.err().contains("SLF4J"),
                "the logging configuration is found and complete: " + status);
    }

    private static List<String> names(String folder) {
        String prefix = TOP + folder;
        return entries.values().stream().filter(e -> !e.directory() && e.name().startsWith(prefix))
                .map(e -> e.name().substring(prefix.length())).filter(n -> !n.contains("/")).sorted()
                .collect(Collectors.toList());
    }

    private static Path unpack(Path dir) throws Exception {
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, tar.exitValue(), output);
        return dir.resolve(TOP);
    }

    private static Run run(Path home, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/tidemark").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        // This JDK, and none of the caller's Tidemark settings.
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("TIDEMARK_CONF_DIR");
        builder.environment().remove("TIDEMARK_LOG_DIR");
        builder.environment().remove("JAVA_OPTS");
        builder.environment().put("TIDEMARK_HEAP", "256m");
        Path out = Files.createTempFile(home, "out", ".txt");
        Path err = Files.createTempFile(home, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "bin/tidemark " + String.join(" ", args) + " still runs");
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** What a run of the launcher printed and returned. */
    private record Run(int exitCode, String out, String err) {

        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }
}
