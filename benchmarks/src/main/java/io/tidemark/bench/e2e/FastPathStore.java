package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.TransactionManager;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.fastpath.FastPathConflictException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Single-key transactions on the fast path (docs/fast-path.md): each is one {@link FastPathTable} get or put, run
 * inside the region server with no TSO round trip; a write refused over an undecided writer counts as an abort.
 */
final class FastPathStore implements KeyValueStore {

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;

    FastPathStore(Connection connection, TableName tableName, TidemarkConfig clientConfig, byte[][] splitKeys)
            throws IOException {
        this.connection = connection;
        this.tableName = tableName;
        ScratchTables.recreate(connection, tableName, Bytes.toString(FAMILY), Set.of(TableFeature.FAST_PATH),
                clientConfig, splitKeys);
        this.tm = TransactionManager.builder(connection).config(clientConfig).build();
    }

    @Override
    public void preload(int rows, byte[] value) throws IOException {
        TidemarkStore.preload(tm, connection, tableName, rows, value);
    }

    @Override
    public Session session() {
        FastPathTable table = FastPathTable.builder(connection, tableName).transactionManager(tm).build();
        return new Session() {
            @Override
            public boolean run(List<Operation> operations) throws IOException {
                if (operations.size() == 2 && operations.get(0).isRead() && !operations.get(1).isRead()
                        && operations.get(0).key() == operations.get(1).key()) {
                    return readModifyWrite(operations.get(0), operations.get(1));
                }
                if (operations.size() != 1) {
                    throw new IllegalArgumentException("a fast-path transaction is one operation, or a read and a"
                            + " write of one key, got " + operations.size());
                }
                Operation op = operations.get(0);
                if (op.isRead()) {
                    table.get(op.get());
                    return true;
                }
                try {
                    table.put(op.put());
                    return true;
                } catch (FastPathConflictException e) {
                    return false;
                }
            }

            /** The paper's br and wc: a read for update, then a write only if the row is unchanged since. */
            private boolean readModifyWrite(Operation read, Operation write) throws IOException {
                try {
                    long version = table.getForUpdate(read.get()).version();
                    table.putIfUnchanged(write.put(), version);
                    return true;
                } catch (FastPathConflictException e) {
                    return false;
                }
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    @Override
    public void close() throws IOException {
        tm.close();
    }
}
