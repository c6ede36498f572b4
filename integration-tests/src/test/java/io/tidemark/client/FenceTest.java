package io.tidemark.client;

import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.util.Set;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fences for DDL: transactions that began before a fence on a table they write cannot commit. */
@ExtendWith(SharedTestClusters.class)
class FenceTest {

    private static final byte[] Q = Bytes.toBytes("q");

    @ParameterizedTest
    @EachCommitMode
    void aFenceAbortsOlderWritersOfItsTableAndNobodyElse(TestCluster cluster) throws IOException {
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
    void fencesOnOneTableOneAfterAnotherEachGetALaterTimestamp(TestCluster cluster) throws IOException {
        TableName table = TableName.valueOf(TestCluster.NAMESPACE, "twofences");
        long first = cluster.tm.fence(table);
        long second = cluster.tm.fence(table);
        assertTrue(second > first);
    }
}
