package io.tidemark.client;

import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import static io.tidemark.testing.TestCluster.F;

/**
 * Rows {@code row-0000} to {@code row-9999} of a test table, sorted as numbered, with one column {@code f:q}: the
 * reads and writes of the non-blocking API's tests.
 */
final class NumberedRows {

    static final byte[] Q = Bytes.toBytes("q");

    private NumberedRows() {
    }

    static byte[] row(int i) {
        return Bytes.toBytes(String.format("row-%04d", i));
    }

    static Put put(int row, String value) {
        return new Put(row(row)).addColumn(F, Q, Bytes.toBytes(value));
    }

    static Get get(int row) {
        return new Get(row(row)).addColumn(F, Q);
    }

    /** The value of {@code f:q} in {@code r}, or null. */
    static String value(Result r) {
        byte[] v = r.getValue(F, Q);
        return v == null ? null : Bytes.toString(v);
    }
}
