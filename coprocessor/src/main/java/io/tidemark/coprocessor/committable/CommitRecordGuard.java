package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitTableSchema;
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
import org.apache.hadoop.hbase.regionserver.Region;

import java.io.IOException;
import java.util.Optional;

/**
 * Makes commit-record puts marked with {@link CommitTableSchema#PUT_IF_ABSENT_ATTRIBUTE} conditional: a put whose
 * row already holds a decision (a commit or an invalidation) is refused with {@link CommitTableSchema#ALREADY_DECIDED}.
 *
 * <p>Why this is atomic: HBase calls {@code preBatchMutate} with the batch's row locks held (shared locks for a plain
 * batch), and invalidations are check-and-mutates, which take the row's exclusive lock. So an invalidation either
 * finished before this check (and is seen) or starts after this batch is applied (and sees the commit). The whole
 * batch is then written with one WAL sync, where a list of check-and-mutates pays one sync per record.
 */
public final class CommitRecordGuard implements RegionCoprocessor, RegionObserver {

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                               MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        Region region = context.getEnvironment().getRegion();
        for (int i = 0; i < batch.size(); i++) {
            Mutation mutation = batch.getOperation(i);
            if (mutation instanceof Put && mutation.getAttribute(CommitTableSchema.PUT_IF_ABSENT_ATTRIBUTE) != null
                    && batch.getOperationStatus(i).getOperationStatusCode() == OperationStatusCode.NOT_RUN
                    && isDecided(region, mutation.getRow())) {
                batch.setOperationStatus(i, new OperationStatus(OperationStatusCode.SANITY_CHECK_FAILURE,
                        CommitTableSchema.ALREADY_DECIDED));
            }
        }
    }

    private static boolean isDecided(Region region, byte[] row) throws IOException {
        return !region.get(new Get(row).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER))
                .isEmpty();
    }
}
