package io.tidemark.coprocessor.load;

import io.tidemark.coprocessor.RegionEnvironments;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Enforces a bulk load in the region servers (docs/api.md, "Bulk loads"). While the region's table descriptor holds
 * {@value TransactionalTableLayout#LOADING_AT_KEY}, every transactional read (a Get or Scan marked
 * {@value FastPathProtocol#TRANSACTION_START} or {@value SnapshotAttribute#NAME}), every fast-path operation and every
 * tentative write is refused with {@link TableLoadingException}; writes marked {@value TableLoad#WRITE_ATTRIBUTE}
 * pass exactly when they belong to the load the descriptor names, and are refused otherwise, also when no load runs.
 * Operations of plain HBase clients are left alone.
 *
 * <p>The check lives here, not in the client, because clients remember a table's descriptor per
 * {@code TransactionManager}: a client that used the table before the load would never see the attribute. A region
 * cannot be stale: HBase reopens every region of a table when its descriptor changes, and each opening starts a new
 * instance of this observer with the new descriptor. It runs first in the chain
 * ({@value TransactionalTableLayout#LOAD_GUARD_PRIORITY}), before the observers that answer Gets themselves.
 */
public final class LoadGuardObserver implements RegionCoprocessor, RegionObserver {

    private static final Logger LOG = LoggerFactory.getLogger(LoadGuardObserver.class);

    private TableLoad load = TableLoad.NONE;
    private String table;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        RegionCoprocessorEnvironment region = RegionEnvironments.of(env, LoadGuardObserver.class);
        table = region.getRegion().getTableDescriptor().getTableName().getNameAsString();
        try {
            load = TableLoad.of(region.getRegion().getTableDescriptor());
        } catch (IllegalArgumentException e) {
            // Some load runs, at an unknown timestamp: refuse transactions and every loader. Failing here instead
            // would keep the region from opening (or abort the server), also for plain HBase clients.
            LOG.error("{}; refusing every transactional operation and every bulk-load write until it is fixed",
                    e.getMessage());
            load = TableLoad.at(0);
        }
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
            throws IOException {
        if (load.isLoading() && (isTransactionalRead(get) || FastPathRequest.isFastPath(get))) {
            throw TableLoadingException.refused(table, FastPathRequest.isFastPath(get) ? "a fast-path operation"
                    : "a transactional read");
        }
    }

    @Override
    public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan) throws IOException {
        if (load.isLoading() && isTransactionalRead(scan)) {
            throw TableLoadingException.refused(table, "a transactional scan");
        }
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> c,
            MiniBatchOperationInProgress<Mutation> miniBatchOp) throws IOException {
        for (int i = 0; i < miniBatchOp.size(); i++) {
            Mutation m = miniBatchOp.getOperation(i);
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

    private static boolean isTransactionalRead(OperationWithAttributes read) {
        return read.getAttribute(FastPathProtocol.TRANSACTION_START) != null
                || read.getAttribute(SnapshotAttribute.NAME) != null;
    }
}
