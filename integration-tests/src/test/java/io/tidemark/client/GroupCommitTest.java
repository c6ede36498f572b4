package io.tidemark.client;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.BeforeDelivery;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit inside a {@link TransactionManager}, on a real TSO and HBase: commits that pile up behind a commit-table
 * round trip share the next one, which the manager sends through its asynchronous HBase connection.
 */
@ExtendWith(SharedTestClusters.class)
class GroupCommitTest {

    private static final byte[] X = Bytes.toBytes("x");

    private static TestCluster env;
    private static TableName tableName;

    @BeforeAll
    static void createTable(TestCluster shared) throws IOException {
        env = shared;
        tableName = env.createTable("data", Set.of());
    }

    @Test
    void commitsQueuedBehindARoundTripShareTheNextOneAndAllBecomeVisible() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean held = new AtomicBoolean();
        // Holds the first commit-record write (a guarded put, or a check-and-mutate without the guard) before it is
        // sent, on its committer's thread: the one round trip allowed is then busy.
        BeforeDelivery holdFirstRecord = new BeforeDelivery(
                op -> isCommitRecordWrite(op) && held.compareAndSet(false, true), op -> await(release));
        Connection holding = holdFirstRecord.wrap(TestCluster.connection());
        try (TransactionManager tm = env.managerBuilder().build();
             TransactionManager queued = TransactionManager.builder(holding).config(oneRoundTripAtATime()).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            CompletableFuture<Void> first = commitInThread(queued, table, "first");
            while (!held.get()) {
                Thread.sleep(1);
            }
            List<Thread> behind = new ArrayList<>();
            List<CompletableFuture<Void>> queuedCommits = new ArrayList<>();
            for (String row : List.of("second", "third")) {
                CompletableFuture<Void> done = new CompletableFuture<>();
                Thread committer = new Thread(() -> commit(queued, table, row, done), "committer-" + row);
                committer.start();
                behind.add(committer);
                queuedCommits.add(done);
            }
            awaitQueued(queued, behind);
            release.countDown();

            first.get(30, TimeUnit.SECONDS);
            for (CompletableFuture<Void> done : queuedCommits) {
                done.get(30, TimeUnit.SECONDS);
            }
            assertEquals(2L, queued.metricRegistry().histogram(ClientMetrics.COMMIT_RECORD_BATCH_SIZE).getCount(),
                    "the held record's own round trip, then one for both records queued behind it");
            assertEquals(2L, queued.metricRegistry().histogram(ClientMetrics.COMMIT_RECORD_BATCH_SIZE).getSnapshot()
                    .getMax());
            Transaction reader = tm.begin();
            for (String row : List.of("first", "second", "third")) {
                assertEquals(row, Bytes.toString(table.get(reader, new Get(Bytes.toBytes(row))).getValue(F, X)));
            }
            tm.commit(reader);
        } finally {
            release.countDown();
        }
    }

    /** A client configuration whose commit records take one commit-table round trip at a time. */
    private static TidemarkConfig oneRoundTripAtATime() {
        return env.configWith(config -> config.set(TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM, "1"));
    }

    private static boolean isCommitRecordWrite(Object op) {
        return op instanceof Put && ((Put) op).getAttribute(CommitTableSchema.PUT_IF_ABSENT_ATTRIBUTE) != null
                || op instanceof CheckAndMutate;
    }

    /**
     * Waits until the TSO answered COMMIT for the held transaction and both committers, and both committers wait:
     * after that answer the only wait left in {@code commit} is for the record's round trip.
     */
    private static void awaitQueued(TransactionManager tm, List<Thread> committers) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < giveUp) {
            boolean answered = tm.metricRegistry().timer(ClientMetrics.TSO_COMMIT_ROUND_TRIP).getCount() == 3;
            if (answered && committers.stream().allMatch(t -> t.getState() == Thread.State.WAITING)) {
                return;
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the committers did not queue behind the held record");
    }

    private static CompletableFuture<Void> commitInThread(TransactionManager tm, TTable table, String row) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        new Thread(() -> commit(tm, table, row, done), "committer-" + row).start();
        return done;
    }

    private static void commit(TransactionManager tm, TTable table, String row, CompletableFuture<Void> done) {
        try {
            Transaction tx = tm.begin();
            table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, X, Bytes.toBytes(row)));
            tm.commit(tx);
            done.complete(null);
        } catch (Throwable t) {
            done.completeExceptionally(t);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "the held write was never released");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
