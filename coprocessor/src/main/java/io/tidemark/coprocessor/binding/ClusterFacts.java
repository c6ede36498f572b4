package io.tidemark.coprocessor.binding;

import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.TimestampTableSchema;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/**
 * What only the TSOs write and a region server reads for itself, from the bound timestamp table
 * ({@link io.tidemark.timestamp.TimestampTableSchema}): the cluster's commit mode, the newest TSO incarnation's epoch,
 * and the bound of every timestamp handed out. Read on first use and cached; the epoch and the bound are read again
 * when a request claims more than the cached values, since a failover or a new block raises them. Thread-safe: one
 * per region.
 */
public final class ClusterFacts {

    private final Connection connection;
    private final TableName timestampTable;
    private volatile @Nullable CommitMode commitMode;
    private volatile long epoch = -1;
    private volatile long bound = -1;

    public ClusterFacts(Connection connection, TableName timestampTable) {
        this.connection = connection;
        this.timestampTable = timestampTable;
    }

    /**
     * The cluster's commit mode, as its TSOs recorded it: cached, read again when {@code claimed} differs (an
     * operator may have changed the mode since, docs/operations.md "Cluster settings").
     */
    public CommitMode commitMode(CommitMode claimed) throws IOException {
        CommitMode known = commitMode;
        if (known == null || known != claimed) {
            byte[] recorded = read(TimestampTableSchema.SETTINGS_ROW, TimestampTableSchema.COMMIT_MODE);
            if (recorded == null) {
                throw new DoNotRetryIOException("timestamp table " + timestampTable + " records no commit mode: no"
                        + " TSO of this version has served this cluster yet (or the table's binding names another"
                        + " timestamp table than its TSOs use, " + "tidemark.timestamp-table.name)");
            }
            try {
                known = CommitMode.fromConfigName(Bytes.toString(recorded));
            } catch (IllegalArgumentException e) {
                throw new DoNotRetryIOException("timestamp table " + timestampTable + " records an unknown commit"
                        + " mode: " + e.getMessage(), e);
            }
            commitMode = known;
        }
        return known;
    }

    /**
     * The epoch of the newest TSO incarnation, at least {@code atLeast} if that is true now: the cached value, read
     * again when it is below {@code atLeast}. Clusters whose TSOs are of a version before the epoch was recorded
     * record none; the bound of every timestamp handed out stands in for it, a weaker check.
     */
    public long epochAtLeast(long atLeast) throws IOException {
        long known = epoch;
        if (known < atLeast) {
            known = readEpoch();
        }
        return known;
    }

    /** The bound of every timestamp handed out, at least {@code atLeast} if that is true now (as the epoch). */
    public long boundAtLeast(long atLeast) throws IOException {
        long known = bound;
        if (known < atLeast) {
            known = readBound();
        }
        return known;
    }

    private synchronized long readEpoch() throws IOException {
        Result max = readMax();
        byte[] recorded = max.getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.EPOCH);
        long read = recorded == null ? boundOf(max) : TimestampTableSchema.decode(recorded);
        epoch = Math.max(epoch, read);
        return epoch;
    }

    private synchronized long readBound() throws IOException {
        bound = Math.max(bound, boundOf(readMax()));
        return bound;
    }

    private long boundOf(Result max) {
        byte[] recorded = max.getValue(TimestampTableSchema.FAMILY, TimestampTableSchema.QUALIFIER);
        return recorded == null ? Timestamps.NONE : TimestampTableSchema.decode(recorded);
    }

    private Result readMax() throws IOException {
        try (Table table = connection.getTable(timestampTable)) {
            return table.get(new Get(TimestampTableSchema.ROW).addFamily(TimestampTableSchema.FAMILY));
        }
    }

    private byte[] read(byte[] row, byte[] qualifier) throws IOException {
        try (Table table = connection.getTable(timestampTable)) {
            return table.get(new Get(row).addColumn(TimestampTableSchema.FAMILY, qualifier))
                    .getValue(TimestampTableSchema.FAMILY, qualifier);
        }
    }
}
