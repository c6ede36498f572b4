package io.tidemark.visibility;

import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * When a table that already held data became transactional ({@value TransactionalTableLayout#CONVERTED_AT_KEY}): the
 * conversion timestamp T0. A data cell or tombstone stored below T0 is a <b>legacy</b> write, made outside
 * transactions before the conversion: without a shadow cell it counts as committed at its own version, visible to
 * every snapshot (all of which start above T0), and it is never resolved against the commit table, invalidated or
 * removed as a tentative write. A table transactional from the start has no boundary ({@link #NONE}).
 */
public final class Conversion {

    /** No legacy cells: the table was transactional from the start. */
    public static final Conversion NONE = new Conversion(0);

    private final long convertedAt;

    private Conversion(long convertedAt) {
        this.convertedAt = convertedAt;
    }

    /**
     * @param convertedAt the conversion timestamp, or 0 for none
     * @throws IllegalArgumentException when it is negative
     */
    public static Conversion at(long convertedAt) {
        if (convertedAt < 0) {
            throw new IllegalArgumentException("a conversion timestamp is not negative, was " + convertedAt);
        }
        return convertedAt == 0 ? NONE : new Conversion(convertedAt);
    }

    /**
     * The boundary a table descriptor records.
     *
     * @throws IllegalArgumentException when {@value TransactionalTableLayout#CONVERTED_AT_KEY} holds no timestamp
     */
    public static Conversion of(TableDescriptor table) {
        String value = table.getValue(TransactionalTableLayout.CONVERTED_AT_KEY);
        if (value == null || value.trim().isEmpty()) {
            return NONE;
        }
        try {
            return at(Long.parseLong(value.trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + table.getTableName().getNameAsString() + " has '"
                    + TransactionalTableLayout.CONVERTED_AT_KEY + "' => '" + value + "', which is no conversion"
                    + " timestamp (a non-negative decimal number written by tidemark table enable)", e);
        }
    }

    /** The conversion timestamp T0, or 0 when the table was transactional from the start. */
    public long convertedAt() {
        return convertedAt;
    }

    /** Whether a data cell or tombstone at {@code version} was written outside transactions before the conversion. */
    public boolean isLegacy(long version) {
        return version < convertedAt;
    }

    /**
     * Whether a transaction that started at {@code startTimestamp} began before the conversion (its snapshot
     * predates T0), so that it may not write the table.
     */
    public boolean startedBefore(long startTimestamp) {
        return startTimestamp <= convertedAt;
    }

    @Override
    public String toString() {
        return convertedAt == 0 ? "transactional from the start" : "converted at " + convertedAt;
    }
}
