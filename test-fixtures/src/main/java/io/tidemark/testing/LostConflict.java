package io.tidemark.testing;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.committable.CommitRecord;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A transaction the TSO aborted for a write-write conflict, and the commit record (with its certificate) the TSO
 * sealed for the winner: what a client that wants the loser committed anyway could borrow from (docs/security.md,
 * "Only the TSO's decisions reach the commit table").
 *
 * @param loser         the transaction the TSO aborted with {@code CONFLICT}
 * @param winnersRecord the winner's commit record, as the TSO sealed it
 */
public record LostConflict(Transaction loser, CommitRecord winnersRecord) {

    private static final long WINNER_SECONDS = 30;

    /**
     * Makes one: a winner of {@code winners} (whose commit records {@code held} holds) and a loser of {@code losers}
     * write "winner" and "loser" to {@code family:qualifier} of {@code row} through {@code table}; while the winner's
     * record is held, the loser's commit is refused with {@code CONFLICT}; then the winner's record is written.
     */
    public static LostConflict between(TransactionManager winners, HeldCommitRecords held, TransactionManager losers,
            TTable table, byte[] row, byte[] family, byte[] qualifier) throws Exception {
        Transaction winner = winners.begin();
        Transaction loser = losers.begin();
        table.put(winner, new Put(row).addColumn(family, qualifier, Bytes.toBytes("winner")));
        table.put(loser, new Put(row).addColumn(family, qualifier, Bytes.toBytes("loser")));
        CompletableFuture<Void> winning = HeldCommitRecords.commitInBackground(winners, winner);
        held.awaitHeld();
        CommitRecord winnersRecord = held.heldRecord();
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> losers.commit(loser));
        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
        held.release();
        winning.get(WINNER_SECONDS, TimeUnit.SECONDS);
        return new LostConflict(loser, winnersRecord);
    }
}
