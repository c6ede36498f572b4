package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * In batched mode a commit-table write that keeps failing is reported as ERROR(INTERNAL), never as COMMITTED, and no
 * write of it outlives the commit-record deadline.
 */
class BatchedWriteFailureTest {

    @Test
    void failedCommitRecordWriteGivesInternalErrorAndServerKeepsServing() throws IOException {
        TidemarkConfig config = TestTso.config("batched_failure", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        Configuration impatient = new Configuration(SharedMiniCluster.conf());
        impatient.setInt("hbase.client.retries.number", 1);
        impatient.setInt("hbase.client.pause", 20);
        impatient.setInt("hbase.client.operation.timeout", 5000);
        try (Connection connection = ConnectionFactory.createConnection(impatient);
             Admin admin = connection.getAdmin()) {
            TsoServer server = TsoServer.builder().config(config).hbaseConnection(connection).build();
            try {
                server.start();
                HBaseCommitTable commitTable = new HBaseCommitTable(connection, new CommitTableSettings(config));
                try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                    long start = client.begin();
                    admin.disableTable(commitTable.tableName());
                    try {
                        ErrorReply error = assertInstanceOf(ErrorReply.class, client.commit(start, 1));
                        assertEquals(ErrorCode.INTERNAL, error.code());
                        assertTrue(error.text().contains("commit table"), error.text());
                        assertTrue(client.closedByServer());
                    } finally {
                        admin.enableTable(commitTable.tableName());
                    }
                }
                try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                    long start = client.begin();
                    assertInstanceOf(CommittedReply.class, client.commit(start, 2));
                    assertTrue(commitTable.lookup(start).isCommitted());
                }
            } finally {
                server.close();
            }
        }
    }

    /**
     * HBase's own client keeps retrying a write for many minutes by default. The TSO bounds every commit-record write
     * by the commit-record timeout after its commit decision, answers ERROR once it passed, and never writes the record
     * later: the commit-table sweeper relies on that to remove a marker safely.
     */
    @Test
    void aBatchPastItsCommitRecordDeadlineIsAnsweredWithAnErrorAndNeverWrittenLater() throws IOException {
        TidemarkConfig config = TestTso.config("batched_deadline", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        config.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "2000");
        Configuration patient = new Configuration(SharedMiniCluster.conf());
        patient.setInt("hbase.client.retries.number", 100);
        patient.setInt("hbase.client.operation.timeout", 1_200_000);
        try (Connection connection = ConnectionFactory.createConnection(patient);
             Admin admin = connection.getAdmin()) {
            TsoServer server = TsoServer.builder().config(config).hbaseConnection(connection).build();
            try {
                server.start();
                HBaseCommitTable commitTable = new HBaseCommitTable(connection, new CommitTableSettings(config));
                long start;
                try (TsoTestClient client = TsoTestClient.connected(server.port())) {
                    start = client.begin();
                    // Offline without failing fast: the region is unassigned, so HBase's client keeps retrying.
                    admin.unassign(admin.getRegions(commitTable.tableName()).get(0).getEncodedNameAsBytes());
                    try {
                        ErrorReply error = assertInstanceOf(ErrorReply.class, client.commit(start, 1));
                        assertEquals(ErrorCode.INTERNAL, error.code());
                    } finally {
                        admin.assign(admin.getRegions(commitTable.tableName()).get(0).getEncodedNameAsBytes());
                    }
                }
                assertTrue(commitTable.lookup(start).isAbsent(), "no late write of the record");
            } finally {
                server.close();
            }
        }
    }
}
