package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitTableSchema;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HConstants.OperationStatusCode;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.OperationStatus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Makes commit-record puts marked with {@link CommitTableSchema#PUT_IF_ABSENT_ATTRIBUTE} conditional: a put whose
 * row already holds a different decision (an invalidation, or another commit timestamp) is refused with
 * {@link CommitTableSchema#ALREADY_DECIDED}. A put of exactly the stored value goes through: it is the same commit
 * re-sent by HBase's client after its first attempt was applied but the reply was lost, and refusing it would make
 * the committer believe it lost.
 *
 * <p>Why this is atomic: HBase calls {@code preBatchMutate} with the batch's row locks held (shared locks for a plain
 * batch), and invalidations are check-and-mutates, which take the row's exclusive lock. So an invalidation either
 * finished before this check (and is seen) or starts after this batch is applied (and sees the commit). The whole
 * batch is then written with one WAL sync, where a list of check-and-mutates pays one sync per record. The batch's
 * stored decisions are read together, with one scanner ({@link StoredDecisions}).
 *
 * <p>It also answers the probe writers read with the table's layout ({@link CommitTableSchema#GUARD_PROBE_ATTRIBUTE}),
 * so they learn that it is there from a region server, without asking the master for the table's descriptor.
 */
public final class CommitRecordGuard implements RegionCoprocessor, RegionObserver {

    private static final byte[] GUARDED = {1};

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                               MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        List<Integer> guarded = new ArrayList<>();
        List<byte[]> rows = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            Mutation mutation = batch.getOperation(i);
            if (mutation instanceof Put && mutation.getAttribute(CommitTableSchema.PUT_IF_ABSENT_ATTRIBUTE) != null
                    && batch.getOperationStatus(i).getOperationStatusCode() == OperationStatusCode.NOT_RUN) {
                guarded.add(i);
                rows.add(mutation.getRow());
            }
        }
        if (guarded.isEmpty()) {
            return;
        }
        Map<byte[], byte[]> stored = StoredDecisions.read(context.getEnvironment().getRegion(), rows);
        for (int i : guarded) {
            Put put = (Put) batch.getOperation(i);
            if (isDecidedOtherwise(put, stored.get(put.getRow()))) {
                batch.setOperationStatus(i, new OperationStatus(OperationStatusCode.SANITY_CHECK_FAILURE,
                        CommitTableSchema.ALREADY_DECIDED));
            }
        }
    }

    @Override
    public void postGetOp(ObserverContext<RegionCoprocessorEnvironment> context, Get get, List<Cell> result) {
        if (get.getAttribute(CommitTableSchema.GUARD_PROBE_ATTRIBUTE) != null) {
            // Qualifier "g" sorts after the layout row's stored "b", so the result stays in order.
            result.add(CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(get.getRow())
                    .setFamily(CommitTableSchema.FAMILY).setQualifier(CommitTableSchema.GUARDED_QUALIFIER)
                    .setTimestamp(HConstants.LATEST_TIMESTAMP).setType(Cell.Type.Put).setValue(GUARDED).build());
        }
    }

    /** Whether {@code stored}, the row's decision or null, is a decision other than the one {@code put} writes. */
    private static boolean isDecidedOtherwise(Put put, byte[] stored) {
        if (stored == null) {
            return false;
        }
        List<Cell> written = put.get(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
        return written.size() != 1 || !CellUtil.matchingValue(written.get(0), stored);
    }
}
