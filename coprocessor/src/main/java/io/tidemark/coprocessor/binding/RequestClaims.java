package io.tidemark.coprocessor.binding;

import io.tidemark.committable.CommitTableMismatchException;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.BindingMismatchException;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.ReaderContext;
import org.apache.hadoop.hbase.TableName;

import java.io.IOException;

/**
 * Checks what a request claims against what the region server knows for itself ({@link TableBinding},
 * {@link ClusterFacts}), before the claim may steer anything the server does with its own credentials
 * (docs/security.md, "Region servers"). A snapshot attribute names a commit table, a commit mode and an epoch: they
 * must be the table's bound commit table and its recorded layout, the cluster's recorded commit mode, and at most the
 * newest recorded epoch. Every timestamp a request carries (a start, a fast-path session or fresh timestamp) must be
 * one a TSO could have handed out: at most the recorded bound of all timestamps (plus a fast-path version's low bits).
 * A claim that fails is refused with {@link BindingMismatchException} or {@link CommitTableMismatchException}, both
 * {@code DoNotRetryIOException}s that say what differs.
 */
public final class RequestClaims {

    private final TableBinding binding;
    private final BoundCommitTable commitTable;
    private final ClusterFacts cluster;

    public RequestClaims(TableBinding binding, BoundCommitTable commitTable, ClusterFacts cluster) {
        this.binding = binding;
        this.commitTable = commitTable;
        this.cluster = cluster;
    }

    /**
     * The reader a snapshot attribute describes, once its claims hold: the commit mode and epoch the server uses are
     * the ones it checked.
     */
    public ReaderContext readerOf(SnapshotAttribute snapshot) throws IOException {
        checkCommitTable(snapshot);
        CommitMode mode = cluster.commitMode(snapshot.commitMode());
        if (snapshot.commitMode() != mode) {
            throw new BindingMismatchException("a read of table " + binding.table() + " claims commit mode "
                    + snapshot.commitMode().configName() + ", but the cluster's TSOs run in " + mode.configName()
                    + " mode (timestamp table " + binding.timestampTable() + "): the reader's transaction was not"
                    + " begun by this cluster's TSO");
        }
        long epoch = cluster.epochAtLeast(snapshot.epoch());
        if (snapshot.epoch() > epoch) {
            throw new BindingMismatchException("a read of table " + binding.table() + " claims TSO epoch "
                    + snapshot.epoch() + ", above the newest epoch the cluster's TSOs recorded, " + epoch
                    + " (timestamp table " + binding.timestampTable() + "): no TSO of this cluster began it");
        }
        checkTimestamp(snapshot.startTimestamp(), "start timestamp");
        return new ReaderContext(snapshot.startTimestamp(), mode, snapshot.epoch(), snapshot.ownVersionsUpTo(),
                snapshot.everyOwnVersion());
    }

    /**
     * Refuses {@code timestamp} (a TSO timestamp, or a version minted between two) when no TSO of the cluster could
     * have handed out the TSO timestamp below it.
     *
     * @param what what the timestamp is, for the message
     */
    public void checkTimestamp(long timestamp, String what) throws IOException {
        long tsoPart = Timestamps.tsoPart(timestamp);
        long bound = cluster.boundAtLeast(tsoPart);
        if (tsoPart > bound) {
            throw new BindingMismatchException("a request to table " + binding.table() + " carries " + what + " "
                    + timestamp + ", above every timestamp the cluster's TSOs handed out (" + bound + ", timestamp"
                    + " table " + binding.timestampTable() + "): it was not handed out by this cluster's TSO");
        }
    }

    private void checkCommitTable(SnapshotAttribute snapshot) throws IOException {
        TableName named;
        try {
            named = TableName.valueOf(snapshot.commitTable());
        } catch (IllegalArgumentException e) {
            throw new CommitTableMismatchException("a read of table " + binding.table() + " names commit table '"
                    + snapshot.commitTable() + "', which is no table name: " + e.getMessage());
        }
        if (!named.equals(binding.commitTable())) {
            throw new CommitTableMismatchException("a read of table " + binding.table() + " names commit table "
                    + named + ", but the table's transactions are decided by commit table " + binding.commitTable()
                    + " (its binding): set " + TidemarkConfig.COMMIT_TABLE + "=" + binding.commitTable()
                    + " in the client");
        }
        HBaseCommitTable bound = commitTable.opened();
        if (bound.schema().buckets() != snapshot.commitTableBuckets()) {
            throw new CommitTableMismatchException("commit table " + binding.commitTable() + " records "
                    + bound.schema().buckets() + " salt buckets, but a read of table " + binding.table()
                    + " was configured with " + snapshot.commitTableBuckets() + ": set "
                    + TidemarkConfig.COMMIT_TABLE_REGIONS + "=" + bound.schema().buckets() + " in the client");
        }
    }
}
