package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.OwnTestCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.util.Set;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A TSO with a transaction timeout: a transaction that ran too long aborts with TIMED_OUT and leaves nothing. */
class TransactionTimeoutTest {

    private static final long TIMEOUT_MS = 500;
    private static final byte[] Q = Bytes.toBytes("q");

    @RegisterExtension
    static final OwnTestCluster OWN = OwnTestCluster.of("txtimeout", CommitMode.LOW_LATENCY,
            config -> config.set(TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS, Long.toString(TIMEOUT_MS)));

    private static TestCluster cluster;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster own) throws IOException {
        cluster = own;
        table = cluster.createTable("data", Set.of());
    }

    @AfterAll
    static void dropTable() throws IOException {
        TestCluster.drop(table);
    }

    @Test
    void aTransactionThatRanPastTheTimeoutAbortsWithTimedOutAndLeavesNothing() throws Exception {
        byte[] row = Bytes.toBytes("slow");
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            Transaction slow = cluster.tm.begin();
            t.put(slow, new Put(row).addColumn(F, Q, Bytes.toBytes("late")));
            Thread.sleep(TIMEOUT_MS * 3);

            TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(slow));
            assertEquals(TransactionAbortedException.Reason.TIMED_OUT, e.reason());
            assertTrue(e.getMessage().contains(TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS.key()), e.getMessage());

            Transaction reader = cluster.tm.begin();
            assertTrue(t.get(reader, new Get(row)).isEmpty());
            t.put(reader, new Put(row).addColumn(F, Q, Bytes.toBytes("quick")));
            cluster.tm.commit(reader);
        }
    }
}
