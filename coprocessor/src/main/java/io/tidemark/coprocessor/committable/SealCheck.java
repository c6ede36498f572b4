package io.tidemark.coprocessor.committable;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.certificate.Seal;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.DecisionKeys;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * What the commit-record guard lets into the commit table where seals are checked (docs/security.md, "Only the TSO's
 * decisions reach the commit table"): a commit record only with the TSO's certificate of exactly that start and
 * commit; an invalidation marker from anyone (it can only stop a transaction that has no decision yet); the removal of
 * a commit record only with its release token, of a marker only with an unmark token; the low watermark only raised,
 * and only with the TSO's certificate of the value; the layout row only written once. Seals are checked against the
 * key of the epoch they name ({@link DecisionKeys}).
 */
final class SealCheck {

    private final DecisionKeys keys;

    SealCheck(DecisionKeys keys) {
        this.keys = keys;
    }

    /**
     * Why {@code mutation} may not be applied, or null when it may.
     *
     * @param stored the value the mutation's row holds now in the column the mutation concerns, or null
     */
    @Nullable String refusal(Mutation mutation, byte @Nullable [] stored) throws IOException {
        byte[] row = mutation.getRow();
        if (!(mutation instanceof Put) && !(mutation instanceof Delete)) {
            return "the commit table takes puts and deletes only";
        }
        if (CommitTableSchema.isRecordRow(row)) {
            return mutation instanceof Delete ? removal((Delete) mutation, row, stored) : record((Put) mutation, row);
        }
        if (Bytes.equals(row, CommitTableSchema.LOW_WATERMARK_ROW) && mutation instanceof Put) {
            return lowWatermark((Put) mutation, stored);
        }
        if (Bytes.equals(row, CommitTableSchema.LAYOUT_ROW) && mutation instanceof Put) {
            return stored == null || Arrays.equals(stored, value((Put) mutation, CommitTableSchema.BUCKETS_QUALIFIER))
                    ? null : "the layout row is written once";
        }
        return "the table's own rows are written only by the TSO, in their own way";
    }

    private @Nullable String record(Put put, byte[] row) throws IOException {
        List<Cell> cells = put.get(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
        if (cells.isEmpty()) {
            return null;
        }
        if (cells.size() != 1) {
            return "a record holds one decision";
        }
        byte[] decision = CellUtil.cloneValue(cells.get(0));
        if (Arrays.equals(decision, CommitTableSchema.INVALIDATED_VALUE)) {
            return null;
        }
        Seal certificate = CommitTableSchema.certificateOf(decision);
        if (certificate == null) {
            return "a commit record without the TSO's certificate";
        }
        long start = CommitTableSchema.startTimestampOf(row);
        long commit = Bytes.toLong(decision, 0);
        DecisionKey key = keys.ofEpoch(certificate.epoch());
        return key != null && key.certifiesCommit(certificate, start, commit) ? null
                : "the certificate of the commit record of " + start + " at " + commit + " is not the TSO's";
    }

    private @Nullable String removal(Delete delete, byte[] row, byte @Nullable [] stored) throws IOException {
        if (stored == null) {
            return null;
        }
        Seal token = seal(delete.getAttribute(CommitTableSchema.RELEASE_ATTRIBUTE));
        long start = CommitTableSchema.startTimestampOf(row);
        DecisionKey key = token == null ? null : keys.ofEpoch(token.epoch());
        boolean marker = Arrays.equals(stored, CommitTableSchema.INVALIDATED_VALUE);
        if (key != null && (marker ? key.unmarks(token, start) : key.releases(token, start))) {
            return null;
        }
        return marker ? "removing the invalidation marker of " + start + " needs an unmark token"
                : "removing the commit record of " + start + " needs its release token";
    }

    private @Nullable String lowWatermark(Put put, byte @Nullable [] stored) throws IOException {
        byte[] value = value(put, CommitTableSchema.LOW_WATERMARK_QUALIFIER);
        if (value == null || value.length != Bytes.SIZEOF_LONG) {
            return "a low watermark is 8 bytes";
        }
        long raised = Bytes.toLong(value);
        if (stored != null && stored.length == Bytes.SIZEOF_LONG && raised < Bytes.toLong(stored)) {
            return "the low watermark only rises";
        }
        Seal certificate = seal(put.getAttribute(CommitTableSchema.LOW_WATERMARK_SEAL_ATTRIBUTE));
        DecisionKey key = certificate == null ? null : keys.ofEpoch(certificate.epoch());
        return key != null && key.certifiesLowWatermark(certificate, raised) ? null
                : "a low watermark without the TSO's certificate";
    }

    private static byte @Nullable [] value(Put put, byte[] qualifier) {
        List<Cell> cells = put.get(CommitTableSchema.FAMILY, qualifier);
        return cells.size() == 1 ? CellUtil.cloneValue(cells.get(0)) : null;
    }

    private static @Nullable Seal seal(byte @Nullable [] attribute) {
        if (attribute == null || attribute.length != Seal.BYTES) {
            return null;
        }
        return Seal.decode(attribute, 0);
    }
}
