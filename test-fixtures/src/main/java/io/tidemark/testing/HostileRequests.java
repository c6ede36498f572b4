package io.tidemark.testing;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/**
 * What a hostile client with read access to a transactional table (and write access to a table of its own) sends a
 * region server over a plain HBase connection (issue 32, docs/security.md): snapshot reads whose attribute claims a
 * commit table, commit mode or epoch of its choosing, reads carrying a start timestamp from the future, and the
 * "commit table" of its own it names. Shared by the tests of the region server's checks, with and without HBase
 * authorization.
 */
public final class HostileRequests {

    private HostileRequests() {
    }

    /**
     * A snapshot read of {@code row} at {@code start} whose attribute claims {@code epoch}, {@code mode} and the commit
     * table {@code commitTable} with {@code buckets} salt buckets; it sees none of its own writes.
     */
    public static Get snapshotRead(byte[] row, long start, long epoch, CommitMode mode, TableName commitTable,
            int buckets) {
        return new Get(row).setAttribute(SnapshotAttribute.NAME, new SnapshotAttribute(start, epoch, start - 1, false,
                mode, commitTable.getNameAsString(), buckets).encode());
    }

    /**
     * A read of {@code row} carrying a transaction start far above every timestamp a TSO handed out: were it
     * believed, it would raise the region's fast-path read clock beyond every TSO timestamp.
     */
    public static Get fromTheFuture(byte[] row) {
        return new Get(row).setAttribute(FastPathProtocol.TRANSACTION_START,
                Bytes.toBytes(Timestamps.tsoPart(Long.MAX_VALUE / 4)));
    }

    /**
     * Turns {@code table} (any table with family {@link CommitTableSchema#FAMILY} that the attacker may write) into a
     * "commit table" with {@code buckets} salt buckets: a layout row, and no low watermark.
     */
    public static void forgeCommitTable(Table table, int buckets) throws IOException {
        table.put(new Put(CommitTableSchema.LAYOUT_ROW).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.BUCKETS_QUALIFIER, Bytes.toBytes(String.valueOf(buckets))));
    }

    /**
     * {@link #forgeCommitTable}, in which the transaction that began at {@code start} committed at {@code commit}.
     */
    public static void forgeCommitRecord(Table table, int buckets, long start, long commit) throws IOException {
        forgeCommitTable(table, buckets);
        table.put(new Put(new CommitTableSchema(buckets).rowKey(start)).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.COMMIT_QUALIFIER, Bytes.toBytes(commit)));
    }

    /** What reading {@code get} threw, or null when it was answered. */
    public static IOException refusal(Table table, Get get) {
        try {
            table.get(get);
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    /** The shadow cell of {@code family:qualifier} at {@code version} in {@code row}, or null. */
    public static byte[] shadowCell(Table table, byte[] row, byte[] family, byte[] qualifier, long version)
            throws IOException {
        Result r = table.get(new Get(row).addColumn(family, CellEncoding.shadowQualifier(qualifier))
                .setTimestamp(version));
        for (Cell c : r.rawCells()) {
            return CellUtil.cloneValue(c);
        }
        return null;
    }
}
