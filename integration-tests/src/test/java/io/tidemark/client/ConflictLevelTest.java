package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.OwnTestCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
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
 * The conflict level is the cluster's (issue 9): a ROW client and a CELL client writing the same cell used to send
 * different ids, and the TSO missed their conflict. Clients follow the level the TSO announces; one configured
 * otherwise is refused.
 */
class ConflictLevelTest {

    @RegisterExtension
    static final OwnTestCluster ROW_LEVEL = OwnTestCluster.of("conflict_level", CommitMode.LOW_LATENCY,
            config -> config.set(TidemarkConfig.TSO_CONFLICT_LEVEL, "row"));

    private static TestCluster env;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster cluster) throws IOException {
        env = cluster;
        table = env.createTransactionalTable("data");
    }

    @Test
    void clientsWithoutAConflictLevelFollowTheClustersRowLevel() throws IOException {
        byte[] row = Bytes.toBytes("follow");
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            Transaction t1 = env.tm.begin();
            Transaction t2 = env.tm.begin();
            t.put(t1, new Put(row).addColumn(F, Bytes.toBytes("a"), Bytes.toBytes("1")));
            t.put(t2, new Put(row).addColumn(F, Bytes.toBytes("b"), Bytes.toBytes("2")));
            env.tm.commit(t1);
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> env.tm.commit(t2));
            assertEquals(TransactionAbortedException.Reason.CONFLICT, e.reason());
        }
    }

    @Test
    void rowAndCellClientsCanNoLongerMissEachOthersConflict() throws IOException {
        byte[] row = Bytes.toBytes("mixed");
        byte[] x = Bytes.toBytes("x");
        try (TransactionManager cellTm = env.managerBuilder().conflictLevel(ConflictLevel.CELL).build();
             TTable t = new TTable(TestCluster.connection(), table)) {
            Transaction rowTx = env.tm.begin();
            TransactionException refused = assertThrows(TransactionException.class, cellTm::begin,
                    "a CELL client would send ids the ROW clients' conflict check never meets");
            assertTrue(refused.getMessage().contains("conflict level cell")
                    && refused.getMessage().contains("uses row"), refused.getMessage());
            t.put(rowTx, new Put(row).addColumn(F, x, Bytes.toBytes("row client")));
            env.tm.commit(rowTx);
        }
    }
}
