package io.tidemark.client;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.visibility.ReaderContext;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of a table whose region servers run the Tidemark snapshot coprocessor: each Get and Scan carries the
 * transaction ({@link SnapshotAttribute}) and comes back already resolved and filtered, so no metadata and no
 * invisible version crosses the network and user Filters are allowed. Every read first sends the transaction's kept
 * writes it could see ({@link WriteBuffer}).
 */
final class ServerSideSnapshotReads {

    private final Transaction tx;
    private final Table table;
    private final SnapshotAttribute snapshot;

    /**
     * @param reader the transaction as a reader now ({@link Transaction#readerContext} or
     *     {@link Transaction#readerContextForWrites})
     */
    ServerSideSnapshotReads(Transaction tx, ReaderContext reader, Table table) {
        this.tx = tx;
        this.table = table;
        this.snapshot = snapshotOf(tx, reader);
    }

    /**
     * What a read carries for the snapshot coprocessor: the transaction as {@code reader}, and where its commit table
     * is. Made when the read is issued, so its own-writes bound stays fixed for the statement.
     */
    static SnapshotAttribute snapshotOf(Transaction tx, ReaderContext reader) {
        CommitTableSettings commitTable = tx.manager().commitTableSettings();
        return new SnapshotAttribute(reader.startTimestamp(), reader.epoch(), reader.ownVersionsUpTo(),
                reader.seesEveryOwnVersion(), reader.commitMode(), commitTable.tableName().getNameAsString(),
                commitTable.buckets());
    }

    Result get(Get get) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), get.getRow(), get.getRow());
        return table.get(SnapshotQueries.serverSideGet(get, snapshot));
    }

    Result[] get(List<Get> gets) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), gets);
        List<Get> marked = new ArrayList<>(gets.size());
        for (Get g : gets) {
            marked.add(SnapshotQueries.serverSideGet(g, snapshot));
        }
        return table.get(marked);
    }

    boolean exists(Get get) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), get.getRow(), get.getRow());
        return table.exists(SnapshotQueries.serverSideGet(get, snapshot));
    }

    ResultScanner getScanner(Scan scan) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), scan);
        return new RunningTransactionScanner(tx, table.getScanner(SnapshotQueries.serverSideScan(scan, snapshot)));
    }

    /** Refuses to go on once the transaction ended, and aborts it on a refused read, like {@link SnapshotScanner}. */
    private static final class RunningTransactionScanner implements ResultScanner {
        private final Transaction tx;
        private final ResultScanner resolved;

        RunningTransactionScanner(Transaction tx, ResultScanner resolved) {
            this.tx = tx;
            this.resolved = resolved;
        }

        @Override
        public Result next() throws IOException {
            tx.checkRunning("scan");
            try {
                return resolved.next();
            } catch (IOException e) {
                throw TransactionAborts.abortIfRefused(tx, e);
            }
        }

        @Override
        public void close() {
            resolved.close();
        }

        @Override
        public boolean renewLease() {
            return resolved.renewLease();
        }

        @Override
        public ScanMetrics getScanMetrics() {
            return resolved.getScanMetrics();
        }
    }
}
