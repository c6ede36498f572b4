package io.tidemark.client;

import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.FastPathRequest;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.List;

/**
 * The first read of a transaction begun lazily, made before it began: one row as the latest committed transaction
 * left it, with that row's version, read for update by its region server (the fast path's read-for-update) with no
 * TSO round trip. The transaction then either commits write-only in that region, which commits only if the row still
 * has that version, or begins at the TSO, after which the row must read the same at the start timestamp
 * ({@link #holdsAt}) or the transaction aborts (docs/architecture.md, "Read-modify-write without a BEGIN").
 */
final class ReadBeforeBegin {

    private final TableName table;
    private final Get get;
    private final Result result;
    private final long version;

    private ReadBeforeBegin(TableName table, Get get, Result result, long version) {
        this.table = table;
        this.get = get;
        this.result = result;
        this.version = version;
    }

    /**
     * Whether {@code get} can be read this way: one the fast path answers, the newest version of whole rows, families
     * or columns, unfiltered, with no time range of a family either, and not only whether the row exists.
     */
    static boolean canRead(Get get) {
        return FastPathTable.readsLatestVersionOnly(get) && get.getColumnFamilyTimeRange().isEmpty()
                && !get.isCheckExistenceOnly();
    }

    /**
     * Reads {@code get} for update from {@code table}, a table with the fast path.
     *
     * @return the read, or null when the row has a writer nobody decided yet: the transaction then begins and reads
     *     at its snapshot, which settles that writer as every snapshot read does
     */
    static @Nullable ReadBeforeBegin read(Table table, Get get) throws IOException {
        FastPathRequest request = FastPathRequest.builder(Operation.READ_FOR_UPDATE, get.getRow())
                .columns(get.getFamilyMap()).build();
        VersionedResult read;
        try {
            read = VersionedResult.fromAnswer(table.get(request.toGet()));
        } catch (IOException e) {
            if (FastPathErrors.find(e, FastPathConflictException.class) != null) {
                return null;
            }
            throw e;
        }
        return new ReadBeforeBegin(table.getName(), new Get(get), read.result(), read.version());
    }

    TableName table() {
        return table;
    }

    byte[] row() {
        return get.getRow();
    }

    /** What the read returned: the committed user cells of the requested columns. */
    Result result() {
        return result;
    }

    /** The row's version when it was read: the commit version of its newest committed write, 0 for none. */
    long version() {
        return version;
    }

    /** The Get that was read. */
    Get get() {
        return new Get(get);
    }

    /**
     * Whether {@code atSnapshot}, the same Get read at the start timestamp of the transaction just begun without its
     * own writes, holds what this read returned: then the transaction is one that read the row at its start.
     */
    boolean holdsAt(Result atSnapshot) {
        return sameColumnsAndValues(result.listCells(), atSnapshot.listCells());
    }

    private static boolean sameColumnsAndValues(@Nullable List<Cell> readCells, @Nullable List<Cell> nowCells) {
        List<Cell> read = readCells == null ? List.of() : readCells;
        List<Cell> now = nowCells == null ? List.of() : nowCells;
        if (read.size() != now.size()) {
            return false;
        }
        for (int i = 0; i < read.size(); i++) {
            if (!CellUtil.matchingColumn(read.get(i), now.get(i)) || !CellUtil.matchingValue(read.get(i), now.get(i))) {
                return false;
            }
        }
        return true;
    }
}
