package io.tidemark.security;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.testing.SecuredMiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: a Kerberos-secured HBase ({@link SecuredMiniCluster}: MiniKdc, HBase's mini-cluster with Kerberos
 * authentication, in this JVM, logged in as the HBase service), and the production commands in processes of their
 * own, each logging in from its keytab ({@code tidemark.security.principal}/{@code .keytab}): {@code table create},
 * {@code tso}, {@code sweep}. A
 * transaction of this JVM (authenticated as the HBase service) commits through that TSO. Runs in a JVM of its own
 * (Hadoop's login is process-wide), see the integration-tests pom.
 */
@Tag("secure-cluster")
class KerberosSecuredHBaseTest {

    private static final Pattern LISTENING = Pattern.compile("^TSO listening on port (\\d+) .*");
    private static final long CHILD_TIMEOUT_SECONDS = 180;

    @TempDir
    static Path work;

    private static SecuredMiniCluster cluster;
    private static File tidemarkKeytab;
    private static Path siteFile;

    @BeforeAll
    static void startSecuredHBase() throws Exception {
        cluster = SecuredMiniCluster.start(work, false);
        tidemarkKeytab = cluster.addUser("tidemark");
        StringBuilder site = new StringBuilder("<configuration>\n");
        Map<String, String> clientSettings = new LinkedHashMap<>(cluster.clientSettings());
        clientSettings.put("hbase.client.retries.number", "3");
        clientSettings.put(TidemarkConfig.COMMIT_TABLE_REGIONS.key(), "1");
        clientSettings.forEach((k, v) -> site.append("  <property><name>").append(k).append("</name><value>")
                .append(v).append("</value></property>\n"));
        siteFile = work.resolve("hbase-site.xml");
        Files.writeString(siteFile, site.append("</configuration>\n"), StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theTsoTheTableCommandAndTheSweeperLogInFromTheirKeytab() throws Exception {
        Path tidemarkSite = tidemarkSite(true);
        Child table = Child.start(work, "table", "create", "secured_accounts", "f",
                "--hbase-site", siteFile.toString(), "--config", tidemarkSite.toString());
        assertEquals(0, table.awaitExit(), table.output());
        assertTrue(table.output().contains("Logged in to Kerberos as tidemark/"), table.output());

        Child tso = Child.start(work, "tso", "--port", "0", "--hbase-site", siteFile.toString(), "--config",
                tidemarkSite.toString());
        try {
            int port = Integer.parseInt(tso.awaitLine(LISTENING).group(1));
            tso.awaitLine(Pattern.compile("^TSO active: .*"));
            // Logged in, and the renewal is scheduled (KerberosLoginTest shows it renews past a ticket's end).
            assertTrue(tso.output().contains("Logged in to Kerberos as tidemark/"), tso.output());
            assertTrue(tso.output().contains("checking the ticket every"), tso.output());

            TidemarkConfig client = new TidemarkConfig(new Configuration(cluster.configuration()));
            client.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + port);
            client.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
            TableName accounts = TableName.valueOf("secured_accounts");
            try (Connection connection = ConnectionFactory.createConnection(cluster.configuration());
                 TransactionManager tm = TransactionManager.builder(connection).config(client).build();
                 TTable t = new TTable(connection, accounts)) {
                Transaction tx = tm.begin();
                t.put(tx, new Put(Bytes.toBytes("alice")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("balance"),
                        Bytes.toBytes(100L)));
                tm.commit(tx);
                Transaction reader = tm.begin();
                assertEquals(100L, Bytes.toLong(t.get(reader, new Get(Bytes.toBytes("alice")))
                        .getValue(Bytes.toBytes("f"), Bytes.toBytes("balance"))));
                tm.rollback(reader);
            }

            Child sweep = Child.start(work, "sweep", "--hbase-site", siteFile.toString(), "--config",
                    tidemarkSite.toString());
            assertEquals(0, sweep.awaitExit(), sweep.output());
            assertTrue(sweep.output().contains("Logged in to Kerberos as tidemark/"), sweep.output());
        } finally {
            tso.close();
        }
    }

    @Test
    void withoutAKeytabTheTsoCannotReachTheSecuredHBase() throws Exception {
        Child tso = Child.start(work, "tso", "--port", "0", "--hbase-site",
                siteFile.toString(), "--config", tidemarkSite(false).toString());
        try {
            assertEquals(1, tso.awaitExit(), tso.output());
            assertTrue(tso.output().contains(TidemarkConfig.SECURITY_PRINCIPAL + " is not set"), tso.output());
        } finally {
            tso.close();
        }
    }

    private static Path tidemarkSite(boolean withKeytab) throws IOException {
        Path file = work.resolve(withKeytab ? "tidemark-site.xml" : "tidemark-site-without-keytab.xml");
        String login = withKeytab
                ? "  <property><name>" + TidemarkConfig.SECURITY_PRINCIPAL + "</name><value>tidemark/_HOST@"
                        + cluster.realm() + "</value></property>\n"
                        + "  <property><name>" + TidemarkConfig.SECURITY_KEYTAB + "</name><value>"
                        + tidemarkKeytab.getAbsolutePath() + "</value></property>\n"
                : "";
        Files.writeString(file, "<configuration>\n" + login + "  <property><name>" + TidemarkConfig.TSO_HOST
                + "</name><value>127.0.0.1</value></property>\n</configuration>\n", StandardCharsets.UTF_8);
        return file;
    }

    /** A production command ({@code io.tidemark.cli.Main}) in a JVM of its own, pointed at the MiniKdc. */
    private static final class Child implements AutoCloseable {
        private final Process process;
        private final StringBuffer output = new StringBuffer();
        private final List<String> lines = new ArrayList<>();

        private Child(Process process) {
            this.process = process;
            Thread reader = new Thread(this::read, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        static Child start(Path work, String... args) throws IOException {
            List<String> command = ChildJvm.command("256m",
                    List.of("-Djava.security.krb5.conf=" + cluster.krb5conf().getAbsolutePath()),
                    io.tidemark.cli.Main.class.getName(), args);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .directory(work.toFile()).start();
            OutputStream stdin = process.getOutputStream();
            stdin.close();
            return new Child(process);
        }

        private void read() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    output.append(line).append('\n');
                    synchronized (lines) {
                        lines.add(line);
                        lines.notifyAll();
                    }
                }
            } catch (IOException e) {
                // The process ended.
            }
        }

        Matcher awaitLine(Pattern pattern) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHILD_TIMEOUT_SECONDS);
            int seen = 0;
            synchronized (lines) {
                while (System.nanoTime() < deadline) {
                    for (; seen < lines.size(); seen++) {
                        Matcher m = pattern.matcher(lines.get(seen));
                        if (m.matches()) {
                            return m;
                        }
                    }
                    if (!process.isAlive()) {
                        break;
                    }
                    lines.wait(500);
                }
            }
            throw new AssertionError("no line matching " + pattern + " from the child:\n" + output);
        }

        int awaitExit() throws InterruptedException {
            if (!process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the child did not exit:\n" + output);
            }
            return process.exitValue();
        }

        String output() {
            return output.toString();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
