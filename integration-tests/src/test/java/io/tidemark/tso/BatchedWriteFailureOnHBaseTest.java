package io.tidemark.tso;

import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.Message;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9 on a real commit table: while the table is disabled, a batch is retried and neither its COMMIT nor a later
 * BEGIN is answered; once it is back, both are, in order.
 */
class BatchedWriteFailureOnHBaseTest {

    @Test
    void failedBatchIsRetriedUntilDurableWhileBeginsWait() throws Exception {
        TidemarkConfig config = HBaseTso.config("batched_failure", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        Configuration impatient = new Configuration(SharedMiniCluster.conf());
        impatient.setInt("hbase.client.retries.number", 1);
        impatient.setInt("hbase.client.pause", 20);
        impatient.setInt("hbase.client.operation.timeout", 5000);
        try (Connection connection = ConnectionFactory.createConnection(impatient);
             Admin admin = connection.getAdmin();
             TsoServer server = TsoServer.builder().config(config).hbaseConnection(connection).build()) {
            server.start();
            HBaseCommitTable commitTable = HBaseTso.commitTable(config);
            try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                long start = client.begin();
                admin.disableTable(commitTable.tableName());
                CommitRequest commit = client.commitRequest(start, 1);
                long beginId = client.nextRequestId();
                client.send(commit);
                client.send(new BeginRequest(beginId));
                try {
                    // More failed attempts than the old code made before giving up and answering.
                    long deadline = System.currentTimeMillis() + 60_000;
                    while (server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() < 4
                            && System.currentTimeMillis() < deadline) {
                        Thread.sleep(20);
                    }
                    assertTrue(server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() >= 4);
                    assertEquals(0, client.bytesWaiting(), "nothing may be answered while the batch is not durable");
                } finally {
                    admin.enableTable(commitTable.tableName());
                }
                Map<Long, Message> replies = new HashMap<>();
                for (int i = 0; i < 2; i++) {
                    Message reply = client.receive();
                    if (reply instanceof BeginReply) {
                        assertTrue(commitTable.lookup(start).isCommitted(),
                                "BEGIN answered before the earlier commit was durable");
                        replies.put(((BeginReply) reply).requestId(), reply);
                    } else {
                        replies.put(assertInstanceOf(CommittedReply.class, reply).requestId(), reply);
                    }
                }
                CommittedReply committed = assertInstanceOf(CommittedReply.class, replies.get(commit.requestId()));
                assertEquals(committed.commitTimestamp(), commitTable.lookup(start).commitTimestamp());
                BeginReply begun = assertInstanceOf(BeginReply.class, replies.get(beginId));
                assertTrue(begun.startTimestamp() > committed.commitTimestamp());
            }
            assertTrue(server.isActive(), "the TSO keeps serving");
        }
    }
}
