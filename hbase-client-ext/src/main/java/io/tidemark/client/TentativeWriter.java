package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Writes a transaction's puts and deletes as tentative cells ({@link TentativeMutations}), reading what row and family
 * deletes cover through a {@link SnapshotReader}. The cells go to the transaction's write buffer ({@link WriteBuffer}),
 * or to HBase at once when it keeps none.
 */
final class TentativeWriter {

    private final Transaction tx;
    private final TableName tableName;
    private final Table table;
    /** What deletes read; null for a transaction not begun yet, which only puts (deletes begin it first). */
    private final @Nullable SnapshotReader reader;
    private final TentativeMutations mutations;

    /** @throws TransactionStateException the transaction is not running or was begun read-only */
    TentativeWriter(Transaction tx, TableName tableName, Table table, @Nullable SnapshotReader reader,
            boolean conflictChecked) {
        this.mutations = new TentativeMutations(tx, tableName, conflictChecked);
        this.tx = tx;
        this.tableName = tableName;
        this.table = table;
        this.reader = reader;
    }

    void put(List<Put> puts) throws IOException {
        write(mutations.puts(puts));
    }

    void delete(List<Delete> deletes) throws IOException {
        TentativeMutations.Deletes planned = mutations.deletes(deletes);
        List<Get> reads = planned.visibleReads();
        List<Result> visible = reads.isEmpty() ? List.of()
                : Arrays.asList(Objects.requireNonNull(reader, "a delete begins its transaction first").get(reads));
        List<Put> tombstones = planned.tombstones(visible);
        if (!tombstones.isEmpty()) {
            write(tombstones);
        }
    }

    /** Keeps the tentative cells in the transaction's write buffer, or sends them when it keeps none. */
    private void write(List<Put> tentative) throws IOException {
        WriteBuffer buffer = tx.writeBuffer();
        if (!buffer.isEnabled()) {
            TransactionManager.sendWrites(tx, table, tentative);
            return;
        }
        buffer.add(tableName, tentative);
        if (buffer.isFull()) {
            tx.manager().sendBufferedWrites(tx);
        }
    }
}
