package io.tidemark.cli;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: without {@code --tso}, {@code tidemark status} finds the active TSO through its lease in the HBase
 * cluster's ZooKeeper (the lease names the TSO's HTTP endpoint), as an operator's health check does; once the TSO is
 * gone it fails with one line.
 */
class StatusThroughZooKeeperTest {

    @Test
    void statusFindsTheActiveTsoThroughItsLeaseAndReportsWhenNoneIsLeft(@TempDir Path work) throws Exception {
        TidemarkConfig config = TestCluster.config("status", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_HTTP_PORT, "0");
        Path site = hbaseSite(work, config);
        TsoServer tso = TestCluster.startTso(config);
        try {
            Run run = status("--hbase-site", site.toString());
            assertEquals(0, run.exitCode, run.err);
            assertTrue(run.out.startsWith("TSO " + tso.advertisedAddress() + ": active (healthy)"), run.out);
            assertTrue(run.out.matches("(?s).*HTTP endpoint +" + tso.httpAddress() + "\n.*"), run.out);
            assertTrue(run.out.matches("(?s).*commit mode +batched\n.*"), run.out);
            assertTrue(run.out.matches("(?s).*epoch +" + tso.epoch() + "\n.*"), run.out);
        } finally {
            tso.close();
        }
        Run afterClose = status("--hbase-site", site.toString());
        assertEquals(StatusCommand.UNHEALTHY_EXIT_CODE, afterClose.exitCode);
        // Closing deletes the lease, even when a renewal raced the delete.
        assertTrue(afterClose.err.startsWith("tidemark status: no TSO holds the lease "), afterClose.err);
        assertEquals(1, afterClose.err.lines().count(), afterClose.err);
        assertEquals("", afterClose.out);
    }

    /** What an operator's hbase-site.xml holds: the mini-cluster's ZooKeeper, plus the test's table names. */
    private static Path hbaseSite(Path work, TidemarkConfig config) throws Exception {
        Configuration site = new Configuration(false);
        Configuration cluster = SharedMiniCluster.conf();
        site.set(HConstants.ZOOKEEPER_QUORUM, cluster.get(HConstants.ZOOKEEPER_QUORUM));
        site.set(HConstants.ZOOKEEPER_CLIENT_PORT, cluster.get(HConstants.ZOOKEEPER_CLIENT_PORT));
        site.set(TidemarkConfig.TIMESTAMP_TABLE.key(), config.get(TidemarkConfig.TIMESTAMP_TABLE).getNameAsString());
        Path file = work.resolve("hbase-site.xml");
        try (OutputStream out = Files.newOutputStream(file)) {
            site.writeXml(out);
        }
        return file;
    }

    private static Run status(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.configured(new Main());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        String[] command = new String[args.length + 1];
        command[0] = "status";
        System.arraycopy(args, 0, command, 1, args.length);
        int exitCode = commandLine.execute(command);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static final class Run {
        final int exitCode;
        final String out;
        final String err;

        Run(int exitCode, String out, String err) {
            this.exitCode = exitCode;
            this.out = out;
            this.err = err;
        }
    }
}
