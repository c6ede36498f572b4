package io.tidemark.client;

import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.List;
import java.util.Set;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Conflict-free writes: atomic with their transaction, never a reason for an abort. */
@ExtendWith(SharedTestClusters.class)
class ConflictFreeWriteTest {

    private static final byte[] Q = Bytes.toBytes("q");

    private static TestCluster cluster;
    private static TableName data;
    private static TableName index;

    @BeforeAll
    static void createTables(TestCluster shared) throws IOException {
        cluster = shared;
        data = cluster.createTable("data", Set.of());
        index = cluster.createTable("index", Set.of());
    }

    @AfterAll
    static void dropTables() throws IOException {
        TestCluster.drop(data);
        TestCluster.drop(index);
    }

    @Test
    void twoTransactionsWritingOneColumnConflictFreeBothCommitAndTheLaterStartWins() throws IOException {
        byte[] entry = Bytes.toBytes("red->apple");
        try (TTable ix = new TTable(TestCluster.connection(), index)) {
            Transaction first = cluster.tm.begin();
            Transaction second = cluster.tm.begin();
            ix.putConflictFree(second, List.of(new Put(entry).addColumn(F, Q, Bytes.toBytes("second"))));
            ix.putConflictFree(first, List.of(new Put(entry).addColumn(F, Q, Bytes.toBytes("first"))));
            cluster.tm.commit(second);
            cluster.tm.commit(first);

            assertArrayEquals(Bytes.toBytes("second"), read(ix, entry));
        }
    }

    @Test
    void aConflictFreeWriteRollsBackWithItsTransactionWhenAnotherWriteConflicts() throws IOException {
        byte[] row = Bytes.toBytes("apple");
        byte[] entry = Bytes.toBytes("green->apple");
        try (TTable table = new TTable(TestCluster.connection(), data);
             TTable ix = new TTable(TestCluster.connection(), index)) {
            Transaction loser = cluster.tm.begin();
            Transaction winner = cluster.tm.begin();
            table.put(winner, new Put(row).addColumn(F, Q, Bytes.toBytes("red")));
            cluster.tm.commit(winner);
            table.put(loser, new Put(row).addColumn(F, Q, Bytes.toBytes("green")));
            ix.putConflictFree(loser, List.of(new Put(entry).addColumn(F, Q, row)));

            assertThrows(TransactionAbortedException.class, () -> cluster.tm.commit(loser));
            assertNull(read(ix, entry), "the index entry of the aborted transaction is not visible");
        }
    }

    @Test
    void aColumnAlsoWrittenByAnOrdinaryPutIsStillConflictChecked() throws IOException {
        byte[] row = Bytes.toBytes("pear");
        try (TTable table = new TTable(TestCluster.connection(), data)) {
            Transaction late = cluster.tm.begin();
            Transaction early = cluster.tm.begin();
            table.put(early, new Put(row).addColumn(F, Q, Bytes.toBytes("early")));
            cluster.tm.commit(early);
            table.putConflictFree(late, List.of(new Put(row).addColumn(F, Q, Bytes.toBytes("late, free"))));
            table.put(late, new Put(row).addColumn(F, Q, Bytes.toBytes("late")));

            assertThrows(TransactionAbortedException.class, () -> cluster.tm.commit(late));
        }
    }

    @Test
    void aConflictFreeDeleteCommitsBesideAConcurrentPutAndTheLaterStartWins() throws IOException {
        byte[] entry = Bytes.toBytes("old->pear");
        try (TTable ix = new TTable(TestCluster.connection(), index)) {
            Transaction create = cluster.tm.begin();
            ix.putConflictFree(create, List.of(new Put(entry).addColumn(F, Q, Bytes.toBytes("pear"))));
            cluster.tm.commit(create);
            Transaction concurrent = cluster.tm.begin();
            Transaction remove = cluster.tm.begin();
            ix.put(concurrent, new Put(entry).addColumn(F, Q, Bytes.toBytes("pear2")));
            ix.deleteConflictFree(remove, List.of(new Delete(entry).addColumns(F, Q)));
            cluster.tm.commit(remove);
            cluster.tm.commit(concurrent);

            assertNull(read(ix, entry), "the delete started after the put, so its tombstone is the newer version");
        }
    }

    private static byte[] read(TTable table, byte[] row) throws IOException {
        Transaction tx = cluster.tm.begin();
        byte[] value = table.get(tx, new Get(row).addColumn(F, Q)).getValue(F, Q);
        cluster.tm.commit(tx);
        return value;
    }
}
