package io.tidemark.ycsb;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Where one YCSB client thread's operations go: plain HBase tables or Tidemark transactions. Outside an explicit
 * transaction every operation stands alone (in transactional modes: its own transaction, committed before the call
 * returns). Used by one thread only, like the DB instance that owns it.
 */
interface RecordStore extends Closeable {

    Result get(TableName table, Get get) throws IOException;

    /** The rows of {@code scan}, read completely (a transaction must not end while a scanner is open). */
    List<Result> scan(TableName table, Scan scan) throws IOException;

    void put(TableName table, Put put) throws IOException;

    void delete(TableName table, Delete delete) throws IOException;

    /** Starts an explicit transaction: the following operations join it until {@link #commit} or {@link #rollback}. */
    void begin() throws IOException;

    /** @throws io.tidemark.client.TransactionAbortedException the transaction aborted; its writes are gone */
    void commit() throws IOException;

    /** Ends the explicit transaction, if any, discarding its writes. */
    void rollback();
}
