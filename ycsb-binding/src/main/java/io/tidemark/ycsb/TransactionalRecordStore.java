package io.tidemark.ycsb;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Operations in Tidemark transactions: inside the explicit transaction when one is open, otherwise each in its own
 * transaction (begin, operation, commit), which is how plain YCSB workloads run.
 */
final class TransactionalRecordStore implements RecordStore {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionalRecordStore.class);

    private final Connection connection;
    private final TransactionManager manager;
    private final Map<TableName, TTable> tables = new HashMap<>();
    private Transaction explicit;

    TransactionalRecordStore(Connection connection, TransactionManager manager) {
        this.connection = connection;
        this.manager = manager;
    }

    /** One step of a transaction on one table. */
    private interface Step<T> {
        T run(TTable table, Transaction tx) throws IOException;
    }

    @Override
    public Result get(TableName table, Get get) throws IOException {
        return run(table, (t, tx) -> t.get(tx, get));
    }

    @Override
    public List<Result> scan(TableName table, Scan scan) throws IOException {
        return run(table, (t, tx) -> {
            List<Result> rows = new ArrayList<>();
            try (ResultScanner scanner = t.getScanner(tx, scan)) {
                for (Result row : scanner) {
                    rows.add(row);
                }
            }
            return rows;
        });
    }

    @Override
    public void put(TableName table, Put put) throws IOException {
        run(table, (t, tx) -> {
            t.put(tx, put);
            return null;
        });
    }

    @Override
    public void delete(TableName table, Delete delete) throws IOException {
        run(table, (t, tx) -> {
            t.delete(tx, delete);
            return null;
        });
    }

    @Override
    public void begin() throws IOException {
        if (explicit != null) {
            throw new IllegalStateException("a transaction is already open on this YCSB client thread; commit or"
                    + " roll it back first");
        }
        explicit = manager.begin();
    }

    @Override
    public void commit() throws IOException {
        if (explicit == null) {
            throw new IllegalStateException("no transaction is open on this YCSB client thread; begin one first");
        }
        Transaction tx = explicit;
        explicit = null;
        manager.commit(tx);
    }

    @Override
    public void rollback() {
        Transaction tx = explicit;
        explicit = null;
        rollbackIfRunning(tx);
    }

    private <T> T run(TableName name, Step<T> step) throws IOException {
        TTable table = table(name);
        if (explicit != null) {
            return step.run(table, explicit);
        }
        Transaction tx = manager.begin();
        T result;
        try {
            result = step.run(table, tx);
        } catch (IOException | RuntimeException e) {
            rollbackIfRunning(tx);
            throw e;
        }
        manager.commit(tx);
        return result;
    }

    /** A failed commit has already ended the transaction (and removed its writes): only a running one needs this. */
    private void rollbackIfRunning(Transaction tx) {
        if (tx == null || tx.state() != TransactionState.RUNNING) {
            return;
        }
        try {
            manager.rollback(tx);
        } catch (RuntimeException e) {
            LOG.warn("rolling back transaction {} failed; readers skip its uncommitted writes", tx.startTimestamp(),
                    e);
        }
    }

    private TTable table(TableName name) throws IOException {
        TTable table = tables.get(name);
        if (table == null) {
            table = new TTable(connection, name);
            tables.put(name, table);
        }
        return table;
    }

    @Override
    public void close() throws IOException {
        rollback();
        IOException first = Closing.closeAll(tables.values(), null);
        tables.clear();
        if (first != null) {
            throw first;
        }
    }
}
