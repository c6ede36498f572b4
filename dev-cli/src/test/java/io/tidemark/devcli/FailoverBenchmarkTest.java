package io.tidemark.devcli;

import io.tidemark.bench.failover.FailoverBenchmark;
import io.tidemark.bench.failover.FailoverOptions;
import io.tidemark.bench.failover.FailoverResult;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.embedded.EmbeddedStorage;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of {@code ./tidemark bench failover}: real TSO processes ({@code tidemark tso}), the active one
 * killed with kill -9 under a bank workload; the standby takes over and nothing committed is lost or invented.
 */
class FailoverBenchmarkTest {

    @Test
    void standbyTsoProcessTakesOverAfterKillMinusNineWithoutLosingACommit(@TempDir Path work) throws Exception {
        FailoverOptions options = new FailoverOptions(1,
                ChildJvm.command("384m", io.tidemark.cli.Main.class.getName(), "tso", "--port", "0"), CommitMode.LOW_LATENCY, 50, 2,
                Duration.ofSeconds(2), work, EmbeddedStorage.LOCAL);
        FailoverResult result = new FailoverBenchmark(options, System.out).run();
        String summary = BenchFailoverCommand.summary(options, result);
        assertTrue(result.correct(), summary);
        assertEquals(1, result.failoverMillis().size(), summary);
        assertTrue(result.bank().committed() > 0, summary);
    }
}
