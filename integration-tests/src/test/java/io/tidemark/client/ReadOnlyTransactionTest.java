package io.tidemark.client;

import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Read-only transactions at bounded staleness: {@link TransactionManager#beginReadOnly(Staleness)}. */
@ExtendWith(SharedTestClusters.class)
class ReadOnlyTransactionTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final Duration LONG = Duration.ofHours(1);

    private static void write(TestCluster cluster, TTable table, byte[] row, String value) throws IOException {
        Transaction tx = cluster.tm.begin();
        table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
        cluster.tm.commit(tx);
    }

    private static String read(TTable table, Transaction tx, byte[] row) throws IOException {
        byte[] value = table.get(tx, new Get(row).addColumn(F, Q)).getValue(F, Q);
        return value == null ? null : Bytes.toString(value);
    }

    @ParameterizedTest
    @EachCommitMode
    void aStaleReadOnlyTransactionReadsAtTheLatestCommitWithoutAskingTheTso(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("stale", Set.of());
        byte[] earlier = Bytes.toBytes("earlier");
        byte[] latest = Bytes.toBytes("latest");
        try (TransactionManager tm = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction first = tm.begin();
            table.put(first, new Put(earlier).addColumn(F, Q, Bytes.toBytes("1")));
            tm.commit(first);
            Transaction second = tm.begin();
            table.put(second, new Put(latest).addColumn(F, Q, Bytes.toBytes("2")));
            tm.commit(second);

            Transaction stale = tm.beginReadOnly(Staleness.atMost(LONG));

            assertTrue(stale.isReadOnly());
            assertEquals(second.commitTimestamp(), stale.startTimestamp(),
                    "the snapshot is the newest safe timestamp the manager knows: its latest commit");
            assertEquals("1", read(table, stale, earlier), "everything committed before it is visible");
            assertNull(read(table, stale, latest), "the commit at the snapshot timestamp itself is not");
            tm.commit(stale);
            assertEquals(stale.startTimestamp(), stale.commitTimestamp());
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void withoutAKnownSnapshotOrWithNoStalenessTheTsoIsAsked(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("fresh", Set.of());
        byte[] row = Bytes.toBytes("r");
        try (TransactionManager reader = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), name)) {
            write(cluster, table, row, "committed elsewhere");

            Transaction first = reader.beginReadOnly(Staleness.atMost(LONG));
            assertEquals("committed elsewhere", read(table, first, row),
                    "a manager that knows no safe timestamp begins at the TSO");
            Transaction reused = reader.beginReadOnly(Staleness.atMost(LONG));
            assertEquals(first.startTimestamp(), reused.startTimestamp(),
                    "the start of a read-only transaction is a safe snapshot at once");
            Transaction strict = reader.beginReadOnly(Staleness.none());
            assertTrue(strict.startTimestamp() > first.startTimestamp(), "no staleness asks the TSO again");
            reader.commit(first);
            reader.commit(reused);
            reader.commit(strict);
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void aSnapshotOlderThanTheBoundIsNotReused(TestCluster cluster) throws Exception {
        try (TransactionManager tm = cluster.managerBuilder().build()) {
            Transaction known = tm.beginReadOnly(Staleness.none());
            Thread.sleep(20);
            Transaction bounded = tm.beginReadOnly(Staleness.atMost(Duration.ofMillis(5)));
            assertTrue(bounded.startTimestamp() > known.startTimestamp());
            assertTrue(known.snapshotAgeAtBegin().compareTo(Duration.ofMillis(20)) < 0);
            tm.commit(known);
            tm.commit(bounded);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void writesInAReadOnlyTransactionAreRefusedAndLeaveNothing(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("refused", Set.of());
        byte[] row = Bytes.toBytes("r");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.beginReadOnly(Staleness.none());
            TransactionStateException put = assertThrows(TransactionStateException.class,
                    () -> table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("x"))));
            assertTrue(put.getMessage().contains("begun read-only"), put.getMessage());
            assertThrows(TransactionStateException.class,
                    () -> table.increment(tx, new Increment(row).addColumn(F, Q, 1)));
            cluster.tm.commit(tx);

            Transaction later = cluster.tm.begin();
            assertTrue(table.get(later, new Get(row)).isEmpty());
            cluster.tm.commit(later);
        } finally {
            TestCluster.drop(name);
        }
    }

    /** Transfers keep the total; every reused snapshot must see a total that some serial order produced. */
    @ParameterizedTest
    @EachCommitMode
    void reusedSnapshotsAreConsistentWhileWritersCommit(TestCluster cluster) throws Exception {
        TableName name = cluster.createTable("transfers", Set.of());
        byte[][] accounts = {Bytes.toBytes("a"), Bytes.toBytes("b"), Bytes.toBytes("c")};
        try (TransactionManager tm = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), name)) {
            // Set up through another manager: tm's snapshots must not stop at the set-up's own commit timestamp.
            Transaction setUp = cluster.tm.begin();
            for (byte[] account : accounts) {
                table.put(setUp, new Put(account).addColumn(F, Q, Bytes.toBytes(100L)));
            }
            cluster.tm.commit(setUp);
            AtomicReference<Throwable> writerFailure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < 60; i++) {
                        transfer(tm, table, accounts[i % 3], accounts[(i + 1) % 3]);
                    }
                } catch (Throwable t) {
                    writerFailure.set(t);
                }
            });
            writer.start();
            int reads = 0;
            while (writer.isAlive() || reads < 20) {
                Transaction tx = tm.beginReadOnly(Staleness.atMost(Duration.ofMillis(50)));
                byte[] first = table.get(tx, new Get(accounts[0]).addColumn(F, Q)).getValue(F, Q);
                long total = Bytes.toLong(first);
                for (int i = 1; i < accounts.length; i++) {
                    total += Bytes.toLong(table.get(tx, new Get(accounts[i]).addColumn(F, Q)).getValue(F, Q));
                }
                assertEquals(300, total, "snapshot " + tx.startTimestamp() + " saw a partial transfer");
                assertArrayEquals(first, table.get(tx, new Get(accounts[0]).addColumn(F, Q)).getValue(F, Q),
                        "a read repeated in one snapshot returns the same value");
                tm.commit(tx);
                reads++;
            }
            writer.join();
            assertNull(writerFailure.get());
        } finally {
            TestCluster.drop(name);
        }
    }

    private static void transfer(TransactionManager tm, TTable table, byte[] from, byte[] to) throws IOException {
        while (true) {
            Transaction tx = tm.begin();
            long a = Bytes.toLong(table.get(tx, new Get(from).addColumn(F, Q)).getValue(F, Q));
            long b = Bytes.toLong(table.get(tx, new Get(to).addColumn(F, Q)).getValue(F, Q));
            table.put(tx, new Put(from).addColumn(F, Q, Bytes.toBytes(a - 7)));
            table.put(tx, new Put(to).addColumn(F, Q, Bytes.toBytes(b + 7)));
            try {
                tm.commit(tx);
                return;
            } catch (TransactionAbortedException conflict) {
                // Another transfer won; try again on a new snapshot.
            }
        }
    }
}
