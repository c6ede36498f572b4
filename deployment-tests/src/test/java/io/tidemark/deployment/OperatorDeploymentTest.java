package io.tidemark.deployment;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11's deployment test: an operator deploys Tidemark next to an HBase cluster they already run, every step a
 * real process. "The existing cluster" is stock HBase in a JVM of its own whose only Tidemark code is the
 * coprocessor bundle from the release tarball; Tidemark runs from the unpacked tarball's {@code bin/tidemark}; the
 * client application (module client-example) runs in JVMs of its own on the classpath a consumer gets from the client
 * artifact and the BOM, and finds the TSO through ZooKeeper.
 */
class OperatorDeploymentTest {

    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration TSO_START_TIMEOUT = Duration.ofMinutes(2);
    private static final byte[] FAMILY = Bytes.toBytes("a");
    private static final byte[] BALANCE = Bytes.toBytes("balance");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static Installation installation;
    private static ExistingHBaseCluster cluster;
    private static ChildProcess tso;

    @BeforeAll
    static void unpackTheTarballAndStartTheExistingCluster() throws IOException {
        installation = Installation.unpack(Path.of(property("deployment.tarball")),
                Files.createDirectories(work.resolve("install")), work.resolve("logs"));
        Path bundle = installation.coprocessorBundle();
        assertEquals("tidemark-coprocessor-bundle-" + property("deployment.version") + "-hbase-"
                + property("deployment.hbase.line") + ".jar",
                bundle.getFileName().toString());
        List<Path> jars = new ArrayList<>(classpathFile(property("deployment.hbase.cluster.classpath.file")));
        jars.add(bundle);
        List<Path> classpath = ExistingHBaseCluster.classpath(work.resolve("hbase"), jars);
        assertTheOnlyTidemarkCodeIsTheBundle(classpath, bundle);
        cluster = ExistingHBaseCluster.start(work.resolve("hbase"), classpath, jvmFlags());
    }

    @AfterAll
    static void stopEverything() {
        if (tso != null) {
            tso.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void operatorDeploysTidemarkNextToAnExistingCluster() throws Exception {
        String site = cluster.clientSite().toString();
        int tsoPort = ExistingHBaseCluster.freePort();
        int httpPort = ExistingHBaseCluster.freePort();
        String httpEndpoint = "127.0.0.1:" + httpPort;

        // c. The TSO, in the background, against the cluster's hbase-site.xml.
        tso = installation.start("tso", "tso", "--hbase-site", site, "--config", tsoSite().toString(),
                "--port", Integer.toString(tsoPort), "--http-port", Integer.toString(httpPort));
        awaitActive(httpEndpoint);

        // d. Transactional tables; the region servers load the observers from the bundle, the only place they are.
        succeeds(installation.run("table-create-accounts", COMMAND_TIMEOUT,
                "table", "--hbase-site", site, "create", "accounts", "a"));
        succeeds(installation.run("table-create-usertable", COMMAND_TIMEOUT,
                "table", "--hbase-site", site, "create", "usertable", "family"));
        succeeds(installation.run("table-check-accounts", COMMAND_TIMEOUT,
                "table", "--hbase-site", site, "check", "accounts"));
        assertTheRegionServerRunsTheTablesObservers(TableName.valueOf("accounts"));

        // e. The client application: the README's Deposit, then a write-write conflict, on the build's JDK and on
        //    every other JDK the build names (deployment.client.jdks: the support matrix's client JDKs).
        long alice = 0;
        for (Path javaHome : clientJdks()) {
            System.out.println("client example on " + javaVersion(javaHome) + " (" + javaHome + ")");
            succeeds(runClientExample(javaHome, "io.tidemark.example.Deposit"));
            alice += 10;
            ChildProcess.Result conflict = runClientExample(javaHome, "io.tidemark.example.WriteConflict");
            succeeds(conflict);
            List<String> outcomes = conflict.stdout().lines().toList();
            assertEquals(2, outcomes.size(), conflict.description());
            assertTrue(outcomes.get(0).matches("first writer: committed \\(start \\d+, commit \\d+\\)"),
                    conflict.description());
            assertTrue(outcomes.get(1).matches("second writer: aborted \\(start \\d+, reason CONFLICT\\)"),
                    conflict.description());
            // Read back in a transaction of this JVM: each deposit committed once, and of the two writers only the
            // first.
            assertEquals(Map.of("alice", alice, "bob", 100L), balances("alice", "bob"), "client on " + javaHome);
        }

        // f. YCSB through the launcher: load, then workload A; aborts are allowed, failures are not.
        String workload = installation.home().resolve("ycsb/workloads/workloada").toString();
        ChildProcess.Result load = installation.run("ycsb-load", COMMAND_TIMEOUT, "ycsb", "-load",
                "-db", "io.tidemark.ycsb.TidemarkClient", "-P", workload, "-p", "hbase.site=" + site,
                "-p", "recordcount=200", "-threads", "2");
        succeeds(load);
        assertNoFailedOperations(load);
        assertEquals(200, returned(load, "INSERT", "OK"), load.description());
        ChildProcess.Result run = installation.run("ycsb-run", COMMAND_TIMEOUT, "ycsb", "-t",
                "-db", "io.tidemark.ycsb.TidemarkClient", "-P", workload, "-p", "hbase.site=" + site,
                "-p", "recordcount=200", "-p", "operationcount=500", "-threads", "2");
        succeeds(run);
        assertNoFailedOperations(run);
        assertTrue(returned(run, "READ", "OK") > 0, run.description());
        assertTrue(returned(run, "UPDATE", "OK") > 0, run.description());

        // g. Status, by address and through the lease in ZooKeeper, and the Prometheus endpoint.
        ChildProcess.Result byAddress = installation.run("status-tso", COMMAND_TIMEOUT, "status", "--tso",
                httpEndpoint);
        succeeds(byAddress);
        assertTrue(byAddress.stdout().contains("active (healthy)"), byAddress.description());
        ChildProcess.Result byLease = installation.run("status-hbase-site", COMMAND_TIMEOUT, "status",
                "--hbase-site", site);
        succeeds(byLease);
        assertTrue(byLease.stdout().contains("active (healthy)"), byLease.description());
        HttpResponse<String> metrics = get(httpEndpoint, "/metrics");
        assertEquals(200, metrics.statusCode());
        assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                metrics.headers().toString());
        String scrape = metrics.body();
        assertEquals(1.0, sample(scrape, "tso_active"), scrape);
        // At least the 200 loaded records, the deposit and the first writer committed; the second writer conflicted.
        assertTrue(sample(scrape, "tso_commits") >= 202, scrape);
        assertTrue(sample(scrape, "tso_begins") >= sample(scrape, "tso_commits"), scrape);
        assertTrue(sample(scrape, "tso_aborts{reason=\"conflict\"}") >= 1, scrape);

        // h. Creating a table that exists: exit code 1 and one line of error, not a server stack trace.
        ChildProcess.Result again = installation.run("table-create-accounts-again", COMMAND_TIMEOUT,
                "table", "--hbase-site", site, "create", "accounts", "a");
        assertEquals(1, again.exitCode(), again.description());
        List<String> errorLines = again.stderr().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, errorLines.size(), again.description());
        assertTrue(errorLines.get(0).contains("accounts"), again.description());

        // i. kill -9 the TSO: status says it is down and exits 1.
        tso.close();
        assertFalse(tso.isAlive());
        ChildProcess.Result down = installation.run("status-after-kill", COMMAND_TIMEOUT, "status", "--tso",
                httpEndpoint);
        assertEquals(1, down.exitCode(), down.description());
        assertTrue(down.stderr().contains("no TSO answers at " + httpEndpoint), down.description());
    }

    @Test
    void versionNamesTheRelease() {
        // j.
        ChildProcess.Result version = installation.run("version", COMMAND_TIMEOUT, "version");
        succeeds(version);
        assertEquals("tidemark " + property("deployment.version"), version.stdout().strip(), version.description());
    }

    /**
     * The operator's tidemark-site.xml for the TSO: a lease of 10 s, as every TSO of the tests and of
     * {@code ./tidemark server} has (docs/configuration.md): this cluster's ZooKeeper shares a JVM with HBase on a
     * loaded machine and can stall for longer than the default 2 s, and there is no standby to fail over to.
     */
    private static Path tsoSite() throws IOException {
        Configuration conf = new Configuration(false);
        conf.setInt(TidemarkConfig.TSO_LEASE_PERIOD_MS.key(), 10_000);
        Path file = work.resolve("tidemark-site.xml");
        try (OutputStream out = Files.newOutputStream(file)) {
            conf.writeXml(out);
        }
        return file;
    }

    /**
     * Every classpath entry but the bundle is a jar without a class of {@code io.tidemark}, or a folder without any
     * class: the region servers can find Tidemark's observers only in the bundle.
     */
    private static void assertTheOnlyTidemarkCodeIsTheBundle(List<Path> classpath, Path bundle) throws IOException {
        assertTrue(containsTidemarkClasses(bundle), bundle + " holds no io.tidemark classes");
        for (Path entry : classpath) {
            if (entry.equals(bundle)) {
                continue;
            }
            if (Files.isDirectory(entry)) {
                try (var files = Files.walk(entry)) {
                    assertTrue(files.noneMatch(f -> f.toString().endsWith(".class")), entry + " holds classes");
                }
            } else {
                assertFalse(entry.getFileName().toString().startsWith("tidemark-"), "a Tidemark jar: " + entry);
                assertFalse(containsTidemarkClasses(entry), entry + " holds io.tidemark classes");
            }
        }
    }

    private static boolean containsTidemarkClasses(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().anyMatch(e -> e.getName().startsWith("io/tidemark/") && e.getName().endsWith(".class"));
        }
    }

    /** Every observer the table's descriptor names is loaded on the cluster's region server. */
    private static void assertTheRegionServerRunsTheTablesObservers(TableName table) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
             Admin admin = connection.getAdmin()) {
            Set<String> observers = admin.getDescriptor(table).getCoprocessorDescriptors().stream()
                    .map(CoprocessorDescriptor::getClassName)
                    // The region server reports the simple names of the coprocessors it loaded.
                    .map(name -> name.substring(name.lastIndexOf('.') + 1)).collect(Collectors.toSet());
            assertFalse(observers.isEmpty(), "table create attached no coprocessors to " + table);
            Set<String> loaded = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
                    .getLiveServerMetrics().values().stream()
                    .map(ServerMetrics::getCoprocessorNames).flatMap(Set::stream).collect(Collectors.toSet());
            assertTrue(loaded.containsAll(observers), "attached " + observers + ", loaded " + loaded);
        }
    }

    /**
     * Runs a main class of the client example with the JDK at {@code javaHome}, on its own resolved classpath plus the
     * cluster's hbase-site.xml.
     */
    private static ChildProcess.Result runClientExample(Path javaHome, String mainClass) {
        List<Path> classpath = new ArrayList<>();
        classpath.add(Path.of(property("deployment.client.jar")));
        classpath.addAll(classpathFile(property("deployment.client.classpath.file")));
        classpath.add(cluster.clientConfDir());
        List<String> command = List.of(javaHome.resolve("bin").resolve("java").toString(),
                "-Xmx256m", "-cp", classpath.stream().map(Path::toString).collect(Collectors.joining(":")),
                mainClass);
        return ChildProcess.run(mainClass.substring(mainClass.lastIndexOf('.') + 1) + "-" + javaHome.getFileName(),
                command, Map.of(), work.resolve("logs"), COMMAND_TIMEOUT);
    }

    /**
     * The JDKs the client example runs on: the build's own, then each JDK home listed in {@code deployment.client.jdks}
     * (comma-separated; .ci/run names those the machine has). A listed home that is not a JDK fails the test rather
     * than shrink the matrix unnoticed.
     */
    private static List<Path> clientJdks() {
        List<Path> homes = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        String listed = System.getProperty("deployment.client.jdks", "");
        for (String home : listed.split(",")) {
            if (home.isBlank() || home.startsWith("${")) {
                continue;
            }
            Path javaHome = Path.of(home.strip());
            assertTrue(Files.isExecutable(javaHome.resolve("bin").resolve("java")),
                    "deployment.client.jdks names " + javaHome + ", which has no bin/java");
            homes.add(javaHome);
        }
        return homes;
    }

    /** The first line of {@code java -version} of the JDK at {@code javaHome}. */
    private static String javaVersion(Path javaHome) {
        ChildProcess.Result version = ChildProcess.run("java-version-" + javaHome.getFileName(), List.of(javaHome.resolve("bin").resolve("java")
                .toString(), "-version"), Map.of(), work.resolve("logs"), COMMAND_TIMEOUT);
        succeeds(version);
        return version.stderr().lines().findFirst().orElse("an unknown JDK");
    }

    /** The balances of {@code accounts}, read in one transaction (TSO found through ZooKeeper, as the client does). */
    private static Map<String, Long> balances(String... accounts) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
             TransactionManager tm = TransactionManager.builder(connection)
                     .config(new TidemarkConfig(new Configuration(false))).build();
             TTable table = new TTable(connection, TableName.valueOf("accounts"))) {
            Transaction tx = tm.begin();
            Map<String, Long> balances = new java.util.HashMap<>();
            for (String account : accounts) {
                Result result = table.get(tx, new Get(Bytes.toBytes(account)).addColumn(FAMILY, BALANCE));
                assertFalse(result.isEmpty(), "no balance for " + account);
                balances.put(account, Bytes.toLong(result.getValue(FAMILY, BALANCE)));
            }
            tm.commit(tx);
            return balances;
        }
    }

    private static void awaitActive(String httpEndpoint) {
        Instant deadline = Instant.now().plus(TSO_START_TIMEOUT);
        String last = "no answer";
        while (Instant.now().isBefore(deadline)) {
            if (!tso.isAlive()) {
                throw new AssertionError("the TSO exited\n" + tso.describe() + cluster.describe());
            }
            try {
                HttpResponse<String> health = get(httpEndpoint, "/health");
                last = health.statusCode() + " " + health.body();
                if (health.statusCode() == 200 && health.body().contains("\"role\":\"active\"")) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            ExistingHBaseCluster.sleep(Duration.ofMillis(300));
        }
        throw new AssertionError("the TSO was not active within " + TSO_START_TIMEOUT + " (/health: " + last + ")\n"
                + tso.describe());
    }

    private static HttpResponse<String> get(String endpoint, String path) throws IOException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + path))
                .timeout(Duration.ofSeconds(5)).build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The value of one sample (name with its labels, as in the Prometheus text format) of a scrape. */
    private static double sample(String scrape, String nameAndLabels) {
        // The Prometheus client writes labels with a trailing comma: tso_aborts{reason="conflict",} 1.0
        String name = nameAndLabels.endsWith("}")
                ? Pattern.quote(nameAndLabels.substring(0, nameAndLabels.length() - 1)) + ",?\\}"
                : Pattern.quote(nameAndLabels);
        Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(scrape);
        if (!m.find()) {
            throw new AssertionError("no sample " + nameAndLabels + " in\n" + scrape);
        }
        return Double.parseDouble(m.group(1));
    }

    /** YCSB counts as failed every operation that returned neither OK nor ABORTED (a transaction lost a conflict). */
    private static void assertNoFailedOperations(ChildProcess.Result ycsb) {
        List<String> failures = ycsb.stdout().lines()
                .filter(l -> l.matches("\\[[A-Z-]+\\], Return=.*") && !l.contains("Return=OK")
                        && !l.contains("Return=ABORTED") || l.matches("\\[[A-Z]+-FAILED\\].*"))
                .toList();
        assertTrue(failures.isEmpty(), failures + "\n" + ycsb.description());
    }

    /** How many {@code operation}s YCSB reports with {@code status}; 0 when it reports none. */
    private static long returned(ChildProcess.Result ycsb, String operation, String status) {
        Matcher m = Pattern.compile("(?m)^\\[" + operation + "\\], Return=" + status + ", (\\d+)$")
                .matcher(ycsb.stdout());
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    private static void succeeds(ChildProcess.Result result) {
        assertEquals(0, result.exitCode(), result.description());
    }

    private static List<Path> classpathFile(String file) {
        try {
            return Arrays.stream(Files.readString(Path.of(file)).strip().split(":")).map(Path::of).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the classpath file " + file, e);
        }
    }

    private static List<String> jvmFlags() {
        return Arrays.asList(property("deployment.hbase.jvm.flags").strip().split("\\s+"));
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank() || value.startsWith("${")) {
            throw new IllegalStateException("system property " + name + " is not set (the module's pom sets it)");
        }
        return value;
    }
}
