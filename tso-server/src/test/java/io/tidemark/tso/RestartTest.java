package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Message;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import io.tidemark.tso.timestamp.TimestampBoundLostException;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A second TSO incarnation on the same HBase never reuses timestamps and refuses older transactions. */
class RestartTest {

    @Test
    void newTimestampsExceedAllOldOnesAfterRestart() throws IOException {
        TidemarkConfig config = TestTso.config("restart_ts", CommitMode.LOW_LATENCY);
        long lastOld = 0;
        long firstEpoch;
        try (TsoServer first = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            firstEpoch = first.epoch();
            // More than one block (100 timestamps), so the first TSO extends its bound while serving.
            for (int i = 0; i < 250; i++) {
                lastOld = client.begin();
            }
        }
        try (TsoServer second = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            assertTrue(second.epoch() >= lastOld, "epoch " + second.epoch() + " below old timestamp " + lastOld);
            assertTrue(second.epoch() > firstEpoch);
            assertTrue(client.begin() > lastOld);
        }
    }

    @Test
    void transactionBegunBeforeRestartCannotCommit() throws IOException {
        TidemarkConfig config = TestTso.config("restart_epoch", CommitMode.LOW_LATENCY);
        long oldStart;
        try (TsoServer first = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connected(first.port())) {
            oldStart = client.begin();
        }
        try (TsoServer second = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connected(second.port())) {
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.commit(oldStart, 1));
            assertEquals(AbortReason.STALE_EPOCH, aborted.reason());
            assertInstanceOf(CommittedReply.class, client.commit(client.begin(), 1));
        }
    }

    @Test
    void twoTsosCannotClaimTheSameTimestampBlock() throws IOException {
        TidemarkConfig config = TestTso.config("restart_race", CommitMode.LOW_LATENCY);
        try (TsoServer server = TestTso.start(config)) {
            HBaseTimestampStorage storage = new HBaseTimestampStorage(SharedMiniCluster.connection(),
                    TableName.valueOf(config.getString(TidemarkConfig.TIMESTAMP_TABLE, "unused")));
            long bound = storage.readBound();
            assertTrue(bound > server.epoch());
            assertThrows(TimestampBoundLostException.class, () -> storage.advanceBound(server.epoch(), bound + 1));
            assertThrows(TimestampBoundLostException.class, () -> storage.advanceBound(0, bound + 1));
            assertEquals(bound, storage.readBound());
        }
    }

    @Test
    void tsoThatLostItsTimestampBoundStopsHandingOutTimestamps() throws IOException {
        TidemarkConfig config = TestTso.config("restart_lost", CommitMode.LOW_LATENCY);
        try (TsoServer server = TestTso.start(config)) {
            HBaseTimestampStorage intruder = new HBaseTimestampStorage(SharedMiniCluster.connection(),
                    TableName.valueOf(config.getString(TidemarkConfig.TIMESTAMP_TABLE, "unused")));
            long bound = intruder.readBound();
            intruder.advanceBound(bound, bound + 1000 * Timestamps.TSO_STEP);
            ErrorReply refusal = null;
            try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                for (int i = 0; i < 200 && refusal == null; i++) {
                    client.send(new BeginRequest(i + 1));
                    Message reply = client.receive();
                    if (reply instanceof ErrorReply) {
                        refusal = (ErrorReply) reply;
                    } else {
                        assertTrue(((BeginReply) reply).startTimestamp() <= bound,
                                "timestamps only come from the block the TSO still owned");
                    }
                }
            }
            assertNotNull(refusal, "the TSO kept handing out timestamps after losing its bound");
            assertEquals(ErrorCode.UNAVAILABLE, refusal.code());
            try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                client.send(new BeginRequest(1));
                assertEquals(ErrorCode.UNAVAILABLE, assertInstanceOf(ErrorReply.class, client.receive()).code());
            }
        }
    }
}
