package io.tidemark.devcli;

import io.tidemark.cli.TsoCommand;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.embedded.EmbeddedHBase;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9: a TSO fenced by another one used to stay alive, answering ERROR UNAVAILABLE forever. Now {@code tidemark
 * tso} exits with code 3 and a one-line reason the moment its lease is taken, so a supervisor restarts it.
 */
class TsoCommandExitTest {

    @Test
    void tsoProcessWhoseLeaseIsTakenExitsWithCodeThreeAndOneLineReason(@TempDir Path work) throws Exception {
        try (EmbeddedHBase hbase = EmbeddedHBase.start(work.resolve("hbase"))) {
            Configuration site = new Configuration(false);
            site.set(HConstants.ZOOKEEPER_QUORUM, hbase.zookeeperQuorum());
            site.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, hbase.zookeeperClientPort());
            site.set(TidemarkConfig.TSO_HOST.key(), "127.0.0.1");
            site.set(TidemarkConfig.TIMESTAMP_TABLE.key(), "exittest:timestamps");
            site.set(TidemarkConfig.COMMIT_TABLE.key(), "exittest:commits");
            site.set(TidemarkConfig.TSO_HTTP_PORT.key(), "0");
            Path siteFile = work.resolve("hbase-site.xml");
            try (OutputStream out = Files.newOutputStream(siteFile)) {
                site.writeXml(out);
            }
            Process tso = new ProcessBuilder(ChildJvm.command("384m", io.tidemark.cli.Main.class.getName(), "tso", "--port", "0",
                    "--hbase-site", siteFile.toString())).redirectErrorStream(false).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(tso.getInputStream(),
                        StandardCharsets.UTF_8));
                String line;
                while ((line = out.readLine()) != null && !line.startsWith("TSO active")) {
                    // Wait until it serves.
                }
                assertTrue(line != null, "the TSO never became active");
                String path = TsoLeaseNode.path(TidemarkConfig.ZOOKEEPER_ROOT.defaultValue(), "exittest:timestamps");
                try (CuratorFramework zk = CuratorFrameworkFactory.newClient(
                        ZooKeeperQuorum.connectString(hbase.configuration()), new RetryOneTime(100))) {
                    zk.start();
                    zk.setData().forPath(path, new TsoLeaseNode("successor", new HostAndPort("127.0.0.1", 1))
                            .encode());
                }
                assertTrue(tso.waitFor(60, TimeUnit.SECONDS), "the deposed TSO process kept running");
                assertEquals(TsoCommand.STOPPED_SERVING_EXIT_CODE, tso.exitValue());
                List<String> reasons = new ArrayList<>();
                try (BufferedReader err = new BufferedReader(new InputStreamReader(tso.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    err.lines().filter(l -> l.startsWith("tidemark tso:")).forEach(reasons::add);
                }
                assertEquals(1, reasons.size(), reasons.toString());
                assertTrue(reasons.get(0).contains("taken over by TSO successor"), reasons.get(0));
            } finally {
                tso.destroyForcibly();
            }
        }
    }
}
