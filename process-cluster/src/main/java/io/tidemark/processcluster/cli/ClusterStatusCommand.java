package io.tidemark.processcluster.cli;

import io.tidemark.processcluster.ClusterFiles;
import io.tidemark.processcluster.ClusterLayout;
import io.tidemark.processcluster.ClusterState;
import io.tidemark.processcluster.Member;
import io.tidemark.processcluster.MemberProcess;
import io.tidemark.processcluster.Readiness;
import io.tidemark.tso.monitoring.TsoStatus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** Whether every process of the cluster runs and serves; exit code 0 exactly when all do. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"One line per process: running or not, its resident memory, and what it says (ZooKeeper's"
                + " mode, the NameNode's live DataNodes, HBase's live region servers, a TSO's role).",
                "Exit code 0 when every process runs and serves, 1 otherwise."})
final class ClusterStatusCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterDirectoryOption dir;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ClusterFiles files = dir.files();
        ClusterState state = dir.state(spec);
        boolean healthy = true;
        long residentKb = 0;
        Integer regionServers = null;
        for (Member m : state.members().keySet()) {
            Optional<MemberProcess> p = state.process(m, files);
            String says;
            if (p.isEmpty()) {
                says = "NOT RUNNING";
                healthy = false;
            } else {
                residentKb += p.get().residentKb();
                says = switch (m.role()) {
                    case ZOOKEEPER -> Optional.ofNullable(Readiness.zookeeperMode(m)).orElse("does not serve");
                    case NAMENODE -> {
                        int live = Readiness.liveDataNodes(m);
                        yield live < 0 ? "does not serve (or in safe mode)" : live + " live DataNodes";
                    }
                    case MASTER -> {
                        Configuration conf = HBaseConfiguration.create();
                        conf.addResource(new org.apache.hadoop.fs.Path(files.clientSite().toUri()));
                        regionServers = Readiness.liveRegionServers(conf);
                        yield regionServers < 0 ? "does not serve" : regionServers + " live region servers";
                    }
                    case TSO -> {
                        TsoStatus s = Readiness.tso(m);
                        yield s == null ? "does not answer" : s.role().toString().toLowerCase(Locale.ROOT);
                    }
                    default -> "runs";
                };
                healthy &= !says.startsWith("does not");
            }
            System.out.printf(Locale.ROOT, "%-14s %-22s %-22s %s%n", m.name(), m.endpoint(m.ports().containsKey(
                    ClusterLayout.CLIENT) ? ClusterLayout.CLIENT : m.ports().containsKey(ClusterLayout.RPC)
                    ? ClusterLayout.RPC : ClusterLayout.DATA), p.map(x -> "pid " + x.pid() + ", "
                    + x.residentKb() / 1024 + " MiB").orElse("-"), says);
        }
        System.out.printf(Locale.ROOT, "%s; %.1f GiB resident in all.%n", healthy ? "healthy" : "NOT HEALTHY",
                residentKb / 1024.0 / 1024.0);
        return healthy ? 0 : 1;
    }
}
