package io.tidemark.workload.bank;

import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Concurrent transfers between few accounts, so that transactions conflict and abort, while an auditor reads all
 * accounts in snapshot after snapshot: no snapshot during the run, and none after it, may see money appear or
 * disappear. Runs against a low-latency TSO: the workload's code is the same in either mode, and that concurrent
 * transfers keep the total in every snapshot in both commit modes is {@code SnapshotIsolationTest
 * .concurrentTransfersPreserveTheTotal} (module integration-tests).
 */
class BankTransferTest {

    @Test
    void totalBalanceNeverChangesInAnySnapshot() throws Exception {
        CommitMode mode = CommitMode.LOW_LATENCY;
        String name = "bank_" + mode.name().toLowerCase();
        try (EmbeddedCluster cluster = EmbeddedCluster.builder()
                .hbaseConnection(SharedMiniCluster.connection())
                .tableNamespace(name)
                .commitMode(mode)
                .start()) {
            BankOptions options = BankOptions.defaults()
                    .withTableName(name + "_accounts")
                    .withAccounts(5)
                    .withThreads(6)
                    .withDuration(Duration.ofSeconds(4));

            BankResult result = new BankWorkload(cluster.connection(), cluster.clientConfig(), options).run();

            assertTrue(result.invariantHolds(), "invariant broken: " + result.violation());
            assertEquals(0, result.errors(), "unexpected failure: " + result.firstError());
            assertTrue(result.committed() > 0, "no transfer committed");
            assertTrue(result.aborted() > 0, "6 threads on 5 accounts never conflicted: conflicts go undetected");
            assertTrue(result.audits() > 1, "the auditor never ran during the transfers");
        }
    }

    @Test
    void countBoundedRunStopsSoonAfterTheRequestedTransfers() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder()
                .hbaseConnection(SharedMiniCluster.connection())
                .tableNamespace("bank_counted")
                .start()) {
            BankOptions options = BankOptions.defaults()
                    .withTableName("bank_counted_accounts")
                    .withThreads(2)
                    .withDuration(Duration.ofMinutes(2))
                    .withMaxTransfers(20);

            BankResult result = new BankWorkload(cluster.connection(), cluster.clientConfig(), options).run();

            assertTrue(result.invariantHolds(), "invariant broken: " + result.violation());
            assertTrue(result.committed() >= 20, "stopped after " + result.committed() + " transfers");
            assertTrue(result.elapsedMillis() < Duration.ofMinutes(1).toMillis(), "ran until the time limit");
        }
    }
}
