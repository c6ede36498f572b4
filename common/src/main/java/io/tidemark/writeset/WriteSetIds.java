package io.tidemark.writeset;

import net.openhft.hashing.LongHashFunction;

import java.nio.ByteBuffer;

/**
 * 64-bit ids of written cells, rows and tables, as sent to the TSO for conflict detection (docs/architecture.md,
 * "Conflict detection"). Each id is XXH3-64 over the length-prefixed parts, so ("ab","c") and ("a","bc") differ.
 * Two different cells share an id with probability about 2^-64 per pair; a shared id can only cause a false abort.
 */
public final class WriteSetIds {

    private static final LongHashFunction HASH = LongHashFunction.xx3();
    /** Mixed into fence ids only ("fence" in ASCII), so they stand apart from cell, row and table ids. */
    private static final long FENCE_MARK = 0x66656E6365L;

    private WriteSetIds() {
    }

    public static long table(byte[] tableName) {
        return hash(tableName);
    }

    /**
     * The id a fence on the table with id {@code tableId} is recorded under: a fence commits this id, and the TSO
     * checks it for every table a COMMIT names, so a transaction that began before the fence and writes the table
     * aborts.
     */
    public static long fence(long tableId) {
        return HASH.hashLongs(new long[] {FENCE_MARK, tableId});
    }

    public static long row(byte[] tableName, byte[] row) {
        return hash(tableName, row);
    }

    public static long cell(byte[] tableName, byte[] row, byte[] family, byte[] qualifier) {
        return hash(tableName, row, family, qualifier);
    }

    private static long hash(byte[]... parts) {
        int size = 0;
        for (byte[] p : parts) {
            size += 4 + p.length;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        for (byte[] p : parts) {
            buffer.putInt(p.length).put(p);
        }
        return HASH.hashBytes(buffer.array());
    }
}
