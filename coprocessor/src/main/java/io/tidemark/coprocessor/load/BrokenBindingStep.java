package io.tidemark.coprocessor.load;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.table.BindingMismatchException;
import io.tidemark.table.TableLoad;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

import java.io.IOException;
import java.util.List;

/**
 * The whole pipeline of a region whose observer cannot tell what it must do (its properties name a feature this
 * version does not know): every transactional request and every bulk-load write is refused, saying why, while plain
 * HBase clients are served. Failing to start instead would keep the region from opening for everyone.
 */
public final class BrokenBindingStep implements RegionStep {

    private final String table;
    private final String problem;

    public BrokenBindingStep(String table, String problem) {
        this.table = table;
        this.problem = problem;
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        if (LoadGuardStep.isTransactionalRead(get) || FastPathRequest.isFastPath(get)) {
            throw refused("a transactional read");
        }
        return false;
    }

    @Override
    public void preScannerOpen(Scan scan) throws IOException {
        if (LoadGuardStep.isTransactionalRead(scan)) {
            throw refused("a transactional scan");
        }
    }

    @Override
    public void preBatchMutate(MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        for (int i = 0; i < batch.size(); i++) {
            Mutation m = batch.getOperation(i);
            if (TableLoad.isMarked(m) || m.getAttribute(FastPathProtocol.TRANSACTION_START) != null) {
                throw refused("a transactional write");
            }
        }
    }

    private BindingMismatchException refused(String what) {
        return new BindingMismatchException(what + " of table " + table + " refused: " + problem);
    }
}
