package io.tidemark.client.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client against the real TSO server (on the shared mini-cluster), not a stand-in. */
class NettyTsoClientAgainstRealTsoTest {

    @Test
    void beginsAndCommitsGoThroughTheRealTso() throws Exception {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_HTTP_PORT, "-1");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, CommitMode.LOW_LATENCY.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "4096");
        config.set(TidemarkConfig.COMMIT_TABLE, "tsoclient:real_tso_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "tsoclient:real_tso_timestamps");
        try (TsoServer server = TsoServer.builder().config(config).hbaseConnection(SharedMiniCluster.connection())
                .build()) {
            server.start();
            try (NettyTsoClient client = NettyTsoClient.builder()
                    .address(new HostAndPort("127.0.0.1", server.port())).build()) {

                assertEquals(CommitMode.LOW_LATENCY, client.incarnation().commitMode());
                assertEquals(server.epoch(), client.incarnation().epoch());

                BeginResult begun = await(client.begin());
                assertEquals(server.epoch(), begun.incarnation().epoch());
                long first = begun.startTimestamp();
                BeginResult secondBegun = await(client.begin());
                long second = secondBegun.startTimestamp();
                CommitResult firstCommit = await(client.commit(first, begun.commitToken(), new long[] {42},
                        new long[] {7}));
                CommitResult secondCommit = await(client.commit(second, secondBegun.commitToken(), new long[] {42},
                        new long[] {7}));

                assertTrue(first > server.epoch() && second > first, first + " then " + second);
                assertTrue(firstCommit.isCommitted());
                assertTrue(firstCommit.commitTimestamp() > second);
                assertEquals(AbortReason.CONFLICT, secondCommit.abortReason());
            }
        }
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }
}
