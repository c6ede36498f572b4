package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.coprocessor.RegionEnvironments;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HConstants.OperationStatusCode;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.OperationStatus;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Where the table names its timestamp table ({@link CommitTableSchema#TIMESTAMP_TABLE_ATTRIBUTE}), it first lets in
 * only what the TSO sealed ({@link SealCheck}): a commit record needs the TSO's certificate, removing a record or an
 * invalidation marker needs a token, the low watermark only rises with the TSO's certificate. A refused mutation
 * fails with {@link CommitTableSchema#NOT_SEALED} and the reason, and nothing of it is applied.
 *
 * <p>It also answers the probe writers read with the table's layout ({@link CommitTableSchema#GUARD_PROBE_ATTRIBUTE}),
 * so they learn that it is there from a region server, without asking the master for the table's descriptor.
 */
public final class CommitRecordGuard implements RegionCoprocessor, RegionObserver {

    private static final Logger LOG = LoggerFactory.getLogger(CommitRecordGuard.class);
    private static final byte[] GUARDED = {1};

    /** Null where the table names no timestamp table: seals are not checked (a table of an earlier version). */
    private @Nullable SealCheck seals;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        RegionCoprocessorEnvironment region = RegionEnvironments.of(env, CommitRecordGuard.class);
        TableDescriptor table = region.getRegion().getTableDescriptor();
        String timestampTable = table.getValue(CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE);
        if (timestampTable == null || timestampTable.trim().isEmpty()) {
            LOG.warn("commit table {} names no timestamp table ({}): commit decisions are not checked against the"
                    + " TSOs' seals; a TSO of this version sets it (docs/security.md)", table.getTableName(),
                    CommitTableSchema.TIMESTAMP_TABLE_ATTRIBUTE);
            return;
        }
        seals = new SealCheck(new TimestampTableKeys(region.getConnection(), TableName.valueOf(timestampTable.trim())));
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                               MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        SealCheck check = seals;
        if (check != null) {
            refuseUnsealed(check, context.getEnvironment().getRegion(), batch);
        }
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

    /**
     * Marks every mutation of the batch that its seals do not entitle ({@link SealCheck}) as failed, with
     * {@link CommitTableSchema#NOT_SEALED} and the reason; under the batch's row locks, so the stored values read here
     * are the ones the mutations would change.
     */
    private void refuseUnsealed(SealCheck seals, Region region, MiniBatchOperationInProgress<Mutation> batch)
            throws IOException {
        List<byte[]> recordRows = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (CommitTableSchema.isRecordRow(batch.getOperation(i).getRow())) {
                recordRows.add(batch.getOperation(i).getRow());
            }
        }
        Map<byte[], byte[]> stored = recordRows.isEmpty() ? Map.of() : StoredDecisions.read(region, recordRows);
        for (int i = 0; i < batch.size(); i++) {
            if (batch.getOperationStatus(i).getOperationStatusCode() != OperationStatusCode.NOT_RUN) {
                continue;
            }
            Mutation mutation = batch.getOperation(i);
            byte[] row = mutation.getRow();
            String refusal = seals.refusal(mutation, CommitTableSchema.isRecordRow(row) ? stored.get(row)
                    : storedInOwnRow(region, row));
            if (refusal != null) {
                batch.setOperationStatus(i, new OperationStatus(OperationStatusCode.SANITY_CHECK_FAILURE,
                        CommitTableSchema.NOT_SEALED + ": " + refusal));
            }
        }
    }

    /** The value the table's own row {@code row} holds in the column the TSO writes there, or null. */
    private static byte[] storedInOwnRow(Region region, byte[] row) throws IOException {
        byte[] qualifier = Bytes.equals(row, CommitTableSchema.LOW_WATERMARK_ROW)
                ? CommitTableSchema.LOW_WATERMARK_QUALIFIER : CommitTableSchema.BUCKETS_QUALIFIER;
        return region.get(new Get(row).addColumn(CommitTableSchema.FAMILY, qualifier))
                .getValue(CommitTableSchema.FAMILY, qualifier);
    }

    /** Whether {@code stored}, the row's decision or null, is a decision other than the one {@code put} writes. */
    private static boolean isDecidedOtherwise(Put put, byte @Nullable [] stored) {
        if (stored == null) {
            return false;
        }
        List<Cell> written = put.get(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
        return written.size() != 1 || !CellUtil.matchingValue(written.get(0), stored);
    }
}
