package io.tidemark.coprocessor.load;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * Enforces a bulk load in the region servers (docs/api.md, "Bulk loads"), first in every region's pipeline. While the
 * region's table descriptor holds {@value TransactionalTableLayout#LOADING_AT_KEY}, every transactional read (a Get or
 * Scan marked {@value FastPathProtocol#TRANSACTION_START} or {@value SnapshotAttribute#NAME}), every fast-path
 * operation, every single-region commit and every tentative write is refused with {@link TableLoadingException};
 * writes marked {@value TableLoad#WRITE_ATTRIBUTE} pass exactly when they belong to the load the descriptor names, and
 * are refused otherwise, also when no load runs. Operations of plain HBase clients are left alone.
 *
 * <p>The check lives here, not in the client, because clients remember a table's descriptor per
 * {@code TransactionManager}: a client that used the table before the load would never see the attribute. A region
 * cannot be stale: HBase reopens every region of a table when its descriptor changes, and each opening starts a new
 * observer instance, and so a new step, with the new descriptor.
 */
public final class LoadGuardStep implements RegionStep {

    private static final Logger LOG = LoggerFactory.getLogger(LoadGuardStep.class);

    private final TableLoad load;
    private final String table;

    private LoadGuardStep(TableLoad load, String table) {
        this.load = load;
        this.table = table;
    }

    /** The guard of the load {@code descriptor} records, if any. */
    public static LoadGuardStep of(TableDescriptor descriptor) {
        String table = descriptor.getTableName().getNameAsString();
        try {
            return new LoadGuardStep(TableLoad.of(descriptor), table);
        } catch (IllegalArgumentException e) {
            // Some load runs, at an unknown timestamp: refuse transactions and every loader. Failing here instead
            // would keep the region from opening (or abort the server), also for plain HBase clients.
            LOG.error("{}; refusing every transactional operation and every bulk-load write until it is fixed",
                    e.getMessage());
            return new LoadGuardStep(TableLoad.at(0), table);
        }
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        // A settle request only records that its commit never runs, and must get through so the commit's client can
        // learn its outcome.
        if (load.isLoading() && SingleRegionCommitRequest.isSingleRegionCommit(get)
                && !SingleRegionCommitRequest.fromGet(get).isSettle()) {
            throw TableLoadingException.refused(table, "a single-region commit");
        }
        if (load.isLoading() && (isTransactionalRead(get) || FastPathRequest.isFastPath(get))) {
            throw TableLoadingException.refused(table, FastPathRequest.isFastPath(get) ? "a fast-path operation"
                    : "a transactional read");
        }
        return false;
    }

    @Override
    public void preScannerOpen(Scan scan) throws IOException {
        if (load.isLoading() && isTransactionalRead(scan)) {
            throw TableLoadingException.refused(table, "a transactional scan");
        }
    }

    @Override
    public void preBatchMutate(MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        for (int i = 0; i < batch.size(); i++) {
            Mutation m = batch.getOperation(i);
            if (TableLoad.isMarked(m)) {
                if (!load.accepts(m)) {
                    throw new TableLoadingException("a bulk-load write to table " + table + " refused: it belongs"
                            + " to a load that is not the table's current one (the table is " + load + "); the load"
                            + " finished or was begun again, so begin a load and write again");
                }
            } else if (load.isLoading() && m.getAttribute(FastPathProtocol.TRANSACTION_START) != null) {
                throw TableLoadingException.refused(table, "a transactional write");
            }
        }
    }

    /** Whether {@code read} is a transactional read, resolved on the client or in the region server. */
    static boolean isTransactionalRead(OperationWithAttributes read) {
        return read.getAttribute(FastPathProtocol.TRANSACTION_START) != null
                || read.getAttribute(SnapshotAttribute.NAME) != null;
    }
}
