package io.tidemark.visibility;

import io.tidemark.fastpath.FastPathProtocol;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;

/**
 * The client's {@link VersionStore}: reads and heals through an HBase {@link Table} on behalf of one transaction.
 * Every Get carries the transaction's start ({@value FastPathProtocol#TRANSACTION_START}), as the transaction's first
 * read of the row did: the region server then refuses it when compaction may have collected versions of that
 * snapshot, and holds it back until fast-path writes below the snapshot are visible. Puts (shadow cells) are not
 * marked: they are not the transaction's tentative writes.
 */
public final class TableVersionStore implements VersionStore {

    private final Table table;
    private final long readerStart;
    private final Conversion conversion;

    /** @param conversion the table's, from its descriptor ({@link Conversion#of}) */
    public TableVersionStore(Table table, long readerStart, Conversion conversion) {
        this.table = table;
        this.readerStart = readerStart;
        this.conversion = conversion;
    }

    @Override
    public Result get(Get get) throws IOException {
        FastPathProtocol.markTransaction(get, readerStart);
        return table.get(get);
    }

    @Override
    public void put(Put put) throws IOException {
        table.put(put);
    }

    @Override
    public Conversion conversion() {
        return conversion;
    }
}
