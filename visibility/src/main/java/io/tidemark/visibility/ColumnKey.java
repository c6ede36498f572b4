package io.tidemark.visibility;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.util.Arrays;

/** A user column (family and qualifier) of one row, as the key of the stored cells that belong to it. */
public final class ColumnKey {

    private final byte[] family;
    private final byte[] qualifier;

    public ColumnKey(byte[] family, byte[] qualifier) {
        this.family = family;
        this.qualifier = qualifier;
    }

    /**
     * The user column a stored cell belongs to: its own for a data cell, the one it describes for a shadow cell or
     * a tombstone. Null for any other Tidemark metadata cell, which the read rule passes over.
     */
    public static @Nullable ColumnKey of(Cell cell) {
        byte[] q = cell.getQualifierArray();
        int off = cell.getQualifierOffset();
        int len = cell.getQualifierLength();
        byte[] userQualifier;
        if (CellEncoding.isShadowQualifier(q, off, len) || CellEncoding.isTombstoneQualifier(q, off, len)) {
            userQualifier = CellEncoding.userQualifier(q, off, len);
        } else if (CellEncoding.isMetadataQualifier(q, off, len)) {
            return null;
        } else {
            userQualifier = CellUtil.cloneQualifier(cell);
        }
        return new ColumnKey(CellUtil.cloneFamily(cell), userQualifier);
    }

    public byte[] family() {
        return family;
    }

    public byte[] qualifier() {
        return qualifier;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnKey && Arrays.equals(family, ((ColumnKey) o).family)
                && Arrays.equals(qualifier, ((ColumnKey) o).qualifier);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(family) * 31 + Arrays.hashCode(qualifier);
    }

    @Override
    public String toString() {
        return Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier);
    }
}
