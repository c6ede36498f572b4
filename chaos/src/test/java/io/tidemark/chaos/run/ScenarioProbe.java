package io.tidemark.chaos.run;

import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

/** Development probe: runs the scenarios named by -Dchaos.scenario (comma-separated) for -Dchaos.seconds. Not part of the suite. */
class ScenarioProbe {

    @Test
    void probe() throws Exception {
        String name = System.getProperty("chaos.scenario", "baseline");
        int seconds = Integer.getInteger("chaos.seconds", 15);
        CommitMode mode = CommitMode.fromConfigName(System.getProperty("chaos.mode", "low-latency"));
        Path out = Path.of("target", "chaos-probe");
        try (ChaosCluster cluster = ChaosCluster.start(out.resolve("hbase"))) {
            for (String one : name.split(",")) {
                ScenarioResult r = new ChaosRun(cluster, Scenarios.named(one), mode, 42,
                        Duration.ofSeconds(seconds), out.resolve(one + "-" + mode.configName())).run();
                System.out.println(ChaosReport.of(r, 8));
            }
        }
    }
}
