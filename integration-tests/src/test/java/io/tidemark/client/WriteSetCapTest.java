package io.tidemark.client;

import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.OwnTestCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: the client refuses a transaction whose write set is above the cap its TSO announced, before sending the
 * COMMIT, rolls it back, and says what to do instead.
 */
class WriteSetCapTest {

    private static final int CAP = 5;

    @RegisterExtension
    static final OwnTestCluster OWN = OwnTestCluster.of("write_set_cap", CommitMode.LOW_LATENCY,
            config -> config.set(TidemarkConfig.TSO_MAX_WRITE_SET, Integer.toString(CAP)));

    private static TestCluster env;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster own) throws IOException {
        env = own;
        table = env.createTransactionalTable("capped");
    }

    @Test
    void aTransactionAboveTheCapIsRefusedBeforeItsCommitAndRolledBack() throws IOException {
        byte[] row = Bytes.toBytes("big");
        try (SnapshotIsolationTest.CountingTsoClient tso = new SnapshotIsolationTest.CountingTsoClient(
                NettyTsoClient.create(env.config, TestCluster.connection().getConfiguration()));
             TransactionManager tm = env.managerBuilder().tsoClient(tso).build();
             TTable t = new TTable(TestCluster.connection(), table)) {
            Transaction tx = tm.begin();
            for (int i = 0; i <= CAP; i++) {
                t.put(tx, new Put(row).addColumn(F, Bytes.toBytes("q" + i), Bytes.toBytes(i)));
            }
            WriteSetTooLargeException refused = assertThrows(WriteSetTooLargeException.class, () -> tm.commit(tx));

            assertEquals(CAP + 1, refused.writeSetSize());
            assertEquals(CAP, refused.maxWriteSet());
            assertTrue(refused.getMessage().contains("Split the work into smaller transactions"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("conflict level row"), refused.getMessage());
            assertEquals(TransactionState.ROLLED_BACK, tx.state());
            assertEquals(0, tso.commits.get(), "the COMMIT was never sent");
            try (Table raw = TestCluster.connection().getTable(table)) {
                Result left = raw.get(new Get(row).readAllVersions());
                assertTrue(left.isEmpty(), "the tentative cells were removed: " + left);
            }
        }
    }

    @Test
    void aTransactionAtTheCapCommits() throws IOException {
        byte[] row = Bytes.toBytes("fits");
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            Transaction tx = env.tm.begin();
            for (int i = 0; i < CAP; i++) {
                t.put(tx, new Put(row).addColumn(F, Bytes.toBytes("q" + i), Bytes.toBytes(i)));
            }
            env.tm.commit(tx);
            assertEquals(TransactionState.COMMITTED, tx.state());
        }
    }
}
