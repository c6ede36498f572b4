package io.tidemark.client;

import io.tidemark.committable.CommitState;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HBase serves data without its master, and so must Tidemark: a process that starts committing, and a region that
 * meets its first pending writer, while the master is away (a restart, a fail-over to a backup master) must not wait
 * for it. Both check the commit table's layout first; that check reads a row, not the table's descriptor.
 */
// Alone: the master is away for a while, and other classes' table changes would wait for it.
@Isolated
class MasterOutageTest {

    private static final byte[] Q = Bytes.toBytes("q");

    /** Bounds the run without the fix, where each call waits for HBase's retries of the master, for minutes. */
    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void transactionsCommitAndReadersInvalidateWhileTheMasterIsAway() throws Exception {
        try (TestCluster cluster = TestCluster.start("masterless", CommitMode.LOW_LATENCY)) {
            TableName name = cluster.createTransactionalTable("t");
            byte[] pendingRow = Bytes.toBytes("pending");
            byte[] row = Bytes.toBytes("row");
            // First used while the master is there: a process's first use of a table reads its descriptor
            // (TransactionalTableCheck), and this TTable remembers the answer for the fresh manager below.
            try (TTable table = new TTable(TestCluster.connection(), name)) {
                Transaction pending = cluster.tm.begin();
                table.put(pending, new Put(pendingRow).addColumn(F, Q, Bytes.toBytes("never committed")));

                MiniHBaseCluster hbase = SharedMiniCluster.utility().getMiniHBaseCluster();
                hbase.stopMaster(0);
                hbase.waitOnMaster(0);
                try (TransactionManager fresh = cluster.managerBuilder().build()) {
                    Transaction reader = fresh.begin();
                    assertTrue(table.get(reader, new Get(pendingRow)).isEmpty(),
                            "the pending writer is invalidated on the region server, not waited for");
                    fresh.rollback(reader);

                    Transaction writer = fresh.begin();
                    table.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
                    fresh.commit(writer);

                    Transaction after = fresh.begin();
                    assertArrayEquals(Bytes.toBytes("v"), table.get(after, new Get(row)).getValue(F, Q));
                    fresh.rollback(after);
                } finally {
                    hbase.startMaster();
                    hbase.waitForActiveAndReadyMaster(TimeUnit.SECONDS.toMillis(120));
                }
                assertEquals(CommitState.invalidated(), cluster.commitTable.lookup(pending.startTimestamp()));
            } finally {
                TestCluster.drop(name);
            }
        }
    }
}
