package io.tidemark.client;

import io.tidemark.committable.CommitTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What follows a commit point: the shadow cells of committed transactions, then the removal of their commit records.
 * Runs for one transaction on the committing thread ({@link PostCommitMode#SYNC}) or for a batch of them on a
 * post-commit thread ({@link AsyncPostCommits}). Failures are logged, never thrown: the transactions are committed
 * either way, and a record that stays lets readers and the sweeper finish the work.
 */
final class PostCommit {

    private static final Logger LOG = LoggerFactory.getLogger(PostCommit.class);

    private final TentativeCells tentativeCells;
    private final CommitTable commitTable;
    private final ClientMetrics metrics;

    PostCommit(TentativeCells tentativeCells, CommitTable commitTable, ClientMetrics metrics) {
        this.tentativeCells = tentativeCells;
        this.commitTable = commitTable;
        this.metrics = metrics;
    }

    /** Shadow cells first; a commit record may only go once every shadow cell of its transaction is durable. */
    void run(List<Transaction> committed) {
        metrics.postCommitBatch(committed.size());
        List<Transaction> marked = tentativeCells.writeShadowCells(committed);
        if (marked.isEmpty()) {
            return;
        }
        List<Long> records = new ArrayList<>(marked.size());
        for (Transaction tx : marked) {
            records.add(tx.startTimestamp());
        }
        try {
            commitTable.deleteAll(records);
        } catch (IOException e) {
            LOG.warn("could not delete the commit records of transactions {}; they are harmless but stay until"
                    + " removed", records, e);
        }
    }
}
