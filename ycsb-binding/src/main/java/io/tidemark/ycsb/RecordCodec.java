package io.tidemark.ycsb;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

import java.util.Map;
import java.util.Set;

/**
 * A YCSB record as an HBase row: the key is the row, each field a column of the one column family (the layout of
 * YCSB's own HBase bindings, so tables and numbers compare).
 */
final class RecordCodec {

    private final byte[] family;

    RecordCodec(byte[] family) {
        this.family = family;
    }

    /** Reads {@code fields}, or the whole record when {@code fields} is null. */
    Get get(String key, Set<String> fields) {
        Get get = new Get(Bytes.toBytes(key));
        if (fields == null) {
            get.addFamily(family);
        } else {
            for (String field : fields) {
                get.addColumn(family, Bytes.toBytes(field));
            }
        }
        return get;
    }

    /** At most {@code count} records from {@code startKey} on. */
    Scan scan(String startKey, int count, Set<String> fields) {
        Scan scan = new Scan().withStartRow(Bytes.toBytes(startKey)).setLimit(count).setCaching(count);
        if (fields == null) {
            scan.addFamily(family);
        } else {
            for (String field : fields) {
                scan.addColumn(family, Bytes.toBytes(field));
            }
        }
        return scan;
    }

    Put put(String key, Map<String, ByteIterator> values) {
        Put put = new Put(Bytes.toBytes(key));
        for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
            put.addColumn(family, Bytes.toBytes(field.getKey()), field.getValue().toArray());
        }
        return put;
    }

    Delete delete(String key) {
        return new Delete(Bytes.toBytes(key));
    }

    /** Copies the fields of {@code row} into {@code record}. */
    void fields(Result row, Map<String, ByteIterator> record) {
        for (Cell cell : row.rawCells()) {
            if (CellUtil.matchingFamily(cell, family)) {
                record.put(Bytes.toString(CellUtil.cloneQualifier(cell)),
                        new ByteArrayByteIterator(CellUtil.cloneValue(cell)));
            }
        }
    }
}
