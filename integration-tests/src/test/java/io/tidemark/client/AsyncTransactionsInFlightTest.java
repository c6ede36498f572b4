package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.client.NumberedRows.get;
import static io.tidemark.client.NumberedRows.put;
import static io.tidemark.client.NumberedRows.row;
import static io.tidemark.client.NumberedRows.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The non-blocking API needs no thread per transaction in flight: thousands of transactions held open together from a
 * handful of threads leave the JVM's thread count where it was. Isolated, so that no other test class starts threads
 * of its own meanwhile.
 */
@ExtendWith(SharedTestClusters.class)
@Isolated
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AsyncTransactionsInFlightTest {


    private AsyncTransactionManager atm;
    private AsyncTransactionalTable table;

    /**
     * One transaction of {@link #thousandsOfTransactionsInFlightNeedNoThreadEach}: begins, writes {@code row}, reads
     * it back, then stays open until {@code allOpen} (every transaction is open; the last to open counts the JVM's threads),
     * then commits. Issued without waiting.
     */
    private CompletableFuture<Void> openThenCommit(int row, int transactions, AtomicInteger open,
            AtomicInteger threadsWhileOpen, CompletableFuture<Void> allOpen) {
        return atm.begin().thenCompose(tx -> table.put(tx, put(row, "v" + row))
                .thenCompose(written -> table.get(tx, get(row)))
                .thenCompose(read -> {
                    if (!("v" + row).equals(value(read))) {
                        throw new AssertionError("row " + row + " read " + value(read));
                    }
                    if (open.incrementAndGet() == transactions) {
                        threadsWhileOpen.set(ManagementFactory.getThreadMXBean().getThreadCount());
                        allOpen.complete(null);
                    }
                    return allOpen;
                })
                .thenCompose(everyoneOpen -> atm.commit(tx)));
    }

    @Test
    void thousandsOfTransactionsInFlightNeedNoThreadEach(TestCluster cluster) throws Exception {
        TableName name = cluster.createTable("inflight", TableFeature.DEFAULT, row(250), row(500), row(750));
        try (AsyncConnection connection = ConnectionFactory.createAsyncConnection(SharedMiniCluster.conf()).get()) {
            atm = AsyncTransactionManager.over(cluster.tm, connection);
            table = atm.table(name).get();
            holdThousandsOpen();
        } finally {
            TestCluster.drop(name);
        }
    }

    /**
     * Thousands of transactions begun, written and held open together from four threads, then committed: the JVM's
     * threads do not grow with them. Everything is issued without waiting; the threads then only wait at the end.
     */
    private void holdThousandsOpen() throws Exception {
        int transactions = 2000;
        int issuerThreads = 4;
        // Warm up every client thread pool on every region: one transaction writing a row of each region.
        Transaction warmUp = atm.begin().get();
        for (int i = 0; i < 1000; i += 250) {
            table.put(warmUp, put(i, "warm"));
        }
        atm.commit(warmUp).get();
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

        CompletableFuture<Void> allOpen = new CompletableFuture<>();
        AtomicInteger open = new AtomicInteger();
        AtomicInteger threadsWhileOpen = new AtomicInteger();
        List<List<CompletableFuture<Void>>> issued = new ArrayList<>();
        List<Thread> issuers = new ArrayList<>();
        for (int t = 0; t < issuerThreads; t++) {
            int first = t * (transactions / issuerThreads);
            List<CompletableFuture<Void>> mine = new ArrayList<>();
            issued.add(mine);
            issuers.add(new Thread(() -> {
                for (int row = first; row < first + transactions / issuerThreads; row++) {
                    mine.add(openThenCommit(row, transactions, open, threadsWhileOpen, allOpen));
                }
            }, "issuer-" + t));
        }
        issuers.forEach(Thread::start);
        for (Thread issuer : issuers) {
            issuer.join();
        }
        List<CompletableFuture<Void>> committed = new ArrayList<>();
        issued.forEach(committed::addAll);

        allOpen.get(3, TimeUnit.MINUTES);
        assertEquals(transactions, open.get());
        CompletableFuture.allOf(committed.toArray(new CompletableFuture<?>[0])).get(3, TimeUnit.MINUTES);

        int grown = threadsWhileOpen.get() - threadsBefore;
        assertTrue(grown <= 16, transactions + " transactions in flight took " + grown + " threads more than the "
                + threadsBefore + " before");
        Transaction check = atm.begin().get();
        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < transactions; i++) {
            gets.add(get(i));
        }
        List<Result> read = table.getAll(check, gets).get();
        for (int i = 0; i < transactions; i++) {
            assertEquals("v" + i, value(read.get(i)), "row " + i + " committed");
        }
        atm.commit(check).get();
    }
}
