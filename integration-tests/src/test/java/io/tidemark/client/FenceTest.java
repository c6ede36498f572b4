package io.tidemark.client;

import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.TestClustersByMode;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.Set;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fences for DDL: transactions that began before a fence on a table they write cannot commit. */
class FenceTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final TestClustersByMode CLUSTERS = new TestClustersByMode("fence");

    @AfterAll
    static void stop() {
        CLUSTERS.close();
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void aFenceAbortsOlderWritersOfItsTableAndNobodyElse(CommitMode mode) throws IOException {
        TestCluster cluster = CLUSTERS.get(mode);
        TableName fenced = cluster.createTable("fenced", Set.of());
        TableName untouched = cluster.createTable("untouched", Set.of());
        byte[] row = Bytes.toBytes("r");
        try (TTable a = new TTable(TestCluster.connection(), fenced);
             TTable b = new TTable(TestCluster.connection(), untouched)) {
            Transaction olderWriter = cluster.tm.begin();
            Transaction otherTableWriter = cluster.tm.begin();
            Transaction olderReader = cluster.tm.begin();
            a.put(olderWriter, new Put(row).addColumn(F, Q, Bytes.toBytes("before")));
            b.put(otherTableWriter, new Put(row).addColumn(F, Q, Bytes.toBytes("elsewhere")));
            a.get(olderReader, new Get(row));

            long fence = cluster.tm.fence(fenced);

            assertTrue(fence > olderWriter.startTimestamp());
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(olderWriter));
            assertEquals(TransactionAbortedException.Reason.FENCED, e.reason());
            cluster.tm.commit(otherTableWriter);
            cluster.tm.commit(olderReader);

            Transaction newer = cluster.tm.begin();
            assertTrue(a.get(newer, new Get(row)).isEmpty(), "the fenced writer left nothing");
            a.put(newer, new Put(row).addColumn(F, Q, Bytes.toBytes("after")));
            cluster.tm.commit(newer);
        } finally {
            TestCluster.drop(fenced);
            TestCluster.drop(untouched);
        }
    }

    @Test
    void fencesOnOneTableOneAfterAnotherEachGetALaterTimestamp() throws IOException {
        TestCluster cluster = CLUSTERS.get(CommitMode.LOW_LATENCY);
        TableName table = TableName.valueOf(TestCluster.NAMESPACE, "twofences");
        long first = cluster.tm.fence(table);
        long second = cluster.tm.fence(table);
        assertTrue(second > first);
    }
}
