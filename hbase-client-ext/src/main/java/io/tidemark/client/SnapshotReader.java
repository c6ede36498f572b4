package io.tidemark.client;

import io.tidemark.visibility.Conversion;
import io.tidemark.visibility.ReaderContext;
import io.tidemark.visibility.SnapshotQuery;
import io.tidemark.visibility.TableVersionStore;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads one table as of a transaction's snapshot, resolving it here on the client: HBase returns stored versions
 * ({@link SnapshotQueries}), and the read rule ({@link SnapshotQuery}, module visibility) turns each row into what the
 * snapshot sees. Every read first sends the transaction's kept writes it could see ({@link WriteBuffer}).
 */
final class SnapshotReader {

    private final Transaction tx;
    private final Table table;
    /** The transaction as a reader when this reader was made: its own-writes bound stays fixed for the statement. */
    private final ReaderContext reader;
    private final SnapshotQuery query;

    /**
     * @param reader the transaction as a reader now ({@link Transaction#readerContext} or
     *     {@link Transaction#readerContextForWrites})
     * @param conversion the table's, from its descriptor
     */
    SnapshotReader(Transaction tx, ReaderContext reader, Table table, Conversion conversion) {
        this.tx = tx;
        this.table = table;
        this.reader = reader;
        this.query = new SnapshotQuery(reader, tx.manager().commitTable(),
                new TableVersionStore(table, tx.startTimestamp(), conversion), tx.decidedWriters(),
                tx.manager().metrics().readerEffects());
    }

    Result get(Get get) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), get.getRow(), get.getRow());
        return answer(get, resolveRow(table.get(SnapshotQueries.snapshotGet(get, reader)), get.getMaxVersions()));
    }

    boolean exists(Get get) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), get.getRow(), get.getRow());
        return !resolveRow(table.get(SnapshotQueries.snapshotGet(get, reader)), 1).isEmpty();
    }

    Result[] get(List<Get> gets) throws IOException {
        tx.sendWritesBeforeRead(table.getName(), gets);
        List<Get> stored = new ArrayList<>(gets.size());
        for (Get g : gets) {
            stored.add(SnapshotQueries.snapshotGet(g, reader));
        }
        Result[] rows = table.get(stored);
        Result[] resolved = new Result[rows.length];
        for (int i = 0; i < rows.length; i++) {
            resolved[i] = answer(gets.get(i), resolveRow(rows[i], gets.get(i).getMaxVersions()));
        }
        return resolved;
    }

    /** What HBase answers to the Get: the cells, or only whether there are any ({@code setCheckExistenceOnly}). */
    private static Result answer(Get get, Result visible) {
        return get.isCheckExistenceOnly() ? Result.create(null, !visible.isEmpty()) : visible;
    }

    /** The transaction as this reader reads for. */
    ReaderContext readerContext() {
        return reader;
    }

    /**
     * The user cells of a stored row (data, tombstones and shadow cells of many versions) the snapshot sees, at most
     * {@code maxVersions} per column (the request's).
     */
    Result resolveRow(Result stored, int maxVersions) throws IOException {
        if (stored.isEmpty()) {
            return stored;
        }
        return Result.create(query.visibleCells(Arrays.asList(stored.rawCells()), maxVersions));
    }
}
