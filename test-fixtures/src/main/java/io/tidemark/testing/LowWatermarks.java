package io.tidemark.testing;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Raises a {@link TestCluster}'s persisted low watermark the way a busy TSO does: committed writes fill its conflict
 * map, which evicts its oldest entries and raises the low watermark to their commit timestamps; the TSO then persists
 * it. Needs a cluster whose TSO has a small conflict map ({@code tidemark.tso.conflict-map.entries=8}: nine committed
 * cells evict one) and persists often ({@code tidemark.tso.low-watermark.persist-interval-ms}).
 */
public final class LowWatermarks {

    private static final long GIVE_UP_SECONDS = 60;
    private static final byte[] Q = Bytes.toBytes("lwm");

    private LowWatermarks() {
    }

    /**
     * Commits single-cell transactions to a scratch table of the cluster until the persisted low watermark is at or
     * above {@code timestamp}: from then on the TSO refuses COMMIT to every transaction that started at or below it.
     */
    public static void raiseTo(TestCluster cluster, long timestamp) throws IOException {
        TableName scratch = cluster.createTransactionalTable("lwm");
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(GIVE_UP_SECONDS);
        try (TTable table = new TTable(SharedMiniCluster.connection(), scratch)) {
            for (int n = 0; cluster.commitTable.readLowWatermark() < timestamp; n++) {
                if (System.nanoTime() - giveUp > 0) {
                    throw new IllegalStateException("the persisted low watermark did not reach " + timestamp
                            + " within " + GIVE_UP_SECONDS + " s; is the TSO's conflict map small?");
                }
                Transaction tx = cluster.tm.begin();
                table.put(tx, new Put(Bytes.toBytes("row-" + n)).addColumn(TestCluster.F, Q, Bytes.toBytes(n)));
                try {
                    cluster.tm.commit(tx);
                } catch (TransactionAbortedException evictedMeanwhile) {
                    // BELOW_LOW_WATERMARK: the watermark passed this very transaction; the next one starts above it.
                }
            }
        } finally {
            TestCluster.drop(scratch);
        }
    }
}
