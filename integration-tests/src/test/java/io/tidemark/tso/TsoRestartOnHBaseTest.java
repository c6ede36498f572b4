package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import io.tidemark.tso.timestamp.TimestampBoundLostException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link TsoRestartContract} on HBase: real restarts; and the timestamp bound's check-and-mutate in HBase. */
class TsoRestartOnHBaseTest extends TsoRestartContract {

    @Override
    protected TsoCluster cluster(TidemarkConfig config) {
        return new HBaseTsoCluster(config);
    }

    @Test
    void twoTsosCannotClaimTheSameTimestampBlock() throws Exception {
        TidemarkConfig config = TestTso.config("restart_race", CommitMode.LOW_LATENCY);
        HBaseTsoCluster cluster = new HBaseTsoCluster(config);
        try (TsoServer server = cluster.start(config)) {
            HBaseTimestampStorage storage = cluster.timestampStorage();
            long bound = storage.readBound();
            assertTrue(bound > server.epoch());
            assertThrows(TimestampBoundLostException.class, () -> storage.advanceBound(server.epoch(), bound + 1, 0));
            assertThrows(TimestampBoundLostException.class, () -> storage.advanceBound(0, bound + 1, 0));
            assertEquals(bound, storage.readBound());
        }
    }
}
