package io.tidemark.table;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Map;

/**
 * A transactional table's descriptor as its Tidemark observer hands it to anyone who may read the table. With HBase
 * authorization on, the master shows a table's descriptor only to users with ADMIN or CREATE on it, which applications
 * and read-only users should not hold (they could alter the table, or drop its observer); yet every Tidemark client
 * must know what the descriptor says of the table (its families' versions and marks, its binding, its features, its
 * conversion and bulk load). So a Get carrying {@link #ATTRIBUTE} is answered by the observer, inside the region
 * server, with one cell ({@link #QUALIFIER}) holding {@link #of the Tidemark part} of the descriptor, after HBase
 * checked that the caller may read the table. The request filters out everything stored, so a table without the
 * observer answers nothing, and nobody can plant an answer by writing a cell (docs/security.md).
 */
public final class TableDescription {

    /** Attribute of a Get asking the table's Tidemark observer for the table's description. */
    public static final String ATTRIBUTE = "tidemark.describe-table";
    /** Qualifier of the one cell of the answer, in the table's first family. */
    public static final byte[] QUALIFIER = Bytes.toBytes("tidemark.table-description");
    /** The row the request addresses: any row reaches one of the table's regions, and the answer holds no data. */
    private static final byte[] ROW = Bytes.toBytes("tidemark.describe-table");
    /** Prefix of the keys of Tidemark's table, family and coprocessor settings. */
    private static final String TIDEMARK_PREFIX = "tidemark.";

    private TableDescription() {
    }

    /** The Get that asks a table's observer for its description. */
    public static Get request() {
        // A page of no rows: what the table stores never answers, only an observer does (before HBase reads).
        Get get = new Get(ROW).setFilter(new PageFilter(0));
        get.setAttribute(ATTRIBUTE, new byte[] {1});
        return get;
    }

    /** Whether {@code get} asks for the table's description. */
    public static boolean isRequest(Get get) {
        return get.getAttribute(ATTRIBUTE) != null;
    }

    /**
     * What of {@code table} a client needs and may see: the name, the Tidemark table settings, every family with its
     * versions, time to live and Tidemark settings, and Tidemark's observers with their properties. Nothing else
     * (other coprocessors' properties, a family's encryption key) leaves the region server.
     */
    public static TableDescriptor of(TableDescriptor table) throws IOException {
        TableDescriptorBuilder described = TableDescriptorBuilder.newBuilder(table.getTableName());
        for (Map.Entry<Bytes, Bytes> value : table.getValues().entrySet()) {
            if (isTidemarks(value.getKey())) {
                described.setValue(value.getKey(), value.getValue());
            }
        }
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            ColumnFamilyDescriptorBuilder f = ColumnFamilyDescriptorBuilder.newBuilder(family.getName())
                    .setMaxVersions(family.getMaxVersions())
                    .setTimeToLive(family.getTimeToLive());
            for (Map.Entry<Bytes, Bytes> value : family.getValues().entrySet()) {
                if (isTidemarks(value.getKey())) {
                    f.setValue(value.getKey(), value.getValue());
                }
            }
            described.setColumnFamily(f.build());
        }
        for (CoprocessorDescriptor coprocessor : table.getCoprocessorDescriptors()) {
            if (isTidemarksObserver(coprocessor.getClassName())) {
                described.setCoprocessor(coprocessor);
            }
        }
        return described.build();
    }

    /** The answer's value: {@code table}'s description, serialized. */
    public static byte[] encode(TableDescriptor table) throws IOException {
        return TableDescriptorBuilder.toByteArray(of(table));
    }

    /**
     * The description a table's observer answered {@link #request()} with, or null when nothing answered (the table
     * has no Tidemark observer).
     *
     * @throws IOException the answer is no description
     */
    public static @Nullable TableDescriptor fromAnswer(Result answer) throws IOException {
        if (answer.isEmpty()) {
            return null;
        }
        for (Cell cell : answer.rawCells()) {
            if (CellUtil.matchingQualifier(cell, QUALIFIER)) {
                try {
                    return TableDescriptorBuilder.parseFrom(CellUtil.cloneValue(cell));
                } catch (DeserializationException e) {
                    throw new IOException("the region server's description of table "
                            + Bytes.toStringBinary(answer.getRow()) + " cannot be read: " + e.getMessage(), e);
                }
            }
        }
        return null;
    }

    private static boolean isTidemarks(Bytes key) {
        return Bytes.toString(key.get(), key.getOffset(), key.getLength()).startsWith(TIDEMARK_PREFIX);
    }

    private static boolean isTidemarksObserver(String className) {
        return className.equals(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                || TransactionalTableLayout.LEGACY_OBSERVERS.contains(className);
    }
}
