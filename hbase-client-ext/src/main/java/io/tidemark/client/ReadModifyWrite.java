package io.tidemark.client;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Increment, Append, checkAndMutate and RowMutations inside a generic transaction: each reads the transaction's
 * snapshot (plus its own writes) through its {@link TTable} and writes the result as an ordinary tentative put, so
 * the written columns enter the write set and conflict detection covers them like any other write. Two transactions
 * that increment one column concurrently therefore conflict, and the later committer aborts: no increment is lost.
 *
 * <p>Every read here sees all of the transaction's own writes made so far, whatever its visibility level
 * ({@link TTable#getForWrite}).
 *
 * <p>A condition is evaluated against the snapshot, not against the newest version, so a checkAndMutate whose
 * condition column it does not also write can see a state that a concurrent transaction is changing (the write skew
 * snapshot isolation allows). Write the condition column too when that matters.
 */
final class ReadModifyWrite {

    private final TTable table;
    private final Transaction tx;

    ReadModifyWrite(TTable table, Transaction tx) {
        this.table = table;
        this.tx = tx;
    }

    /** Adds each amount to its column (absent counts as 0); the new values, unless results were turned off. */
    Result increment(Increment increment) throws IOException {
        checkAllTime(increment, increment.getTimeRange(), "Increment");
        return rewrite(increment, increment.isReturnResults(), (current, family, qualifier, amount) ->
                Bytes.toBytes(currentLong(current, family, qualifier) + Bytes.toLong(amount)));
    }

    /** Appends each value to its column (absent counts as empty); the new values, unless results were turned off. */
    Result append(Append append) throws IOException {
        checkAllTime(append, append.getTimeRange(), "Append");
        return rewrite(append, append.isReturnResults(), (current, family, qualifier, suffix) -> {
            byte[] before = current.getValue(family, qualifier);
            return Bytes.add(before == null ? HConstants.EMPTY_BYTE_ARRAY : before, suffix);
        });
    }

    /** How a column's new value follows from the snapshot and the operand the mutation carries for it. */
    @FunctionalInterface
    private interface NewValue {
        byte[] of(Result current, byte[] family, byte[] qualifier, byte[] operand);
    }

    /** Reads the mutation's columns in the snapshot and puts their new values. */
    private Result rewrite(Mutation mutation, boolean returnResults, NewValue newValue) throws IOException {
        Result current = table.getForWrite(tx, columnsOf(mutation));
        Put put = new Put(mutation.getRow());
        put.setDurability(mutation.getDurability());
        for (Map.Entry<byte[], List<Cell>> family : mutation.getFamilyCellMap().entrySet()) {
            for (Cell operand : family.getValue()) {
                byte[] qualifier = CellUtil.cloneQualifier(operand);
                put.addColumn(family.getKey(), qualifier,
                        newValue.of(current, family.getKey(), qualifier, CellUtil.cloneValue(operand)));
            }
        }
        table.put(tx, put);
        return returnResults ? resultOf(put) : Result.EMPTY_RESULT;
    }

    /** Applies the mutations of one row in order; the combined Result of its Increments and Appends. */
    Result mutateRow(RowMutations mutations) throws IOException {
        List<Cell> returned = new ArrayList<>();
        for (Mutation mutation : mutations.getMutations()) {
            Result result = apply(mutation);
            if (!result.isEmpty()) {
                returned.addAll(Arrays.asList(result.rawCells()));
            }
        }
        returned.sort(CellComparator.getInstance());
        return Result.create(returned);
    }

    /**
     * Runs the action when the condition holds in the snapshot. A value condition means what it means to HBase
     * ({@code ifMatches(op, value)} compares {@code value} with the column's value, and an empty or null value means
     * "the column is absent or empty"); a Filter condition holds when the filtered row is not empty.
     */
    CheckAndMutateResult checkAndMutate(CheckAndMutate check) throws IOException {
        if (!check.getTimeRange().isAllTime()) {
            throw new TimestampNotAllowedException("CheckAndMutate");
        }
        if (!conditionHolds(check)) {
            return new CheckAndMutateResult(false, null);
        }
        Row action = check.getAction();
        Result result = action instanceof RowMutations ? mutateRow((RowMutations) action) : apply((Mutation) action);
        return new CheckAndMutateResult(true, result.isEmpty() ? null : result);
    }

    private Result apply(Mutation mutation) throws IOException {
        if (mutation instanceof Put) {
            table.put(tx, (Put) mutation);
        } else if (mutation instanceof Delete) {
            table.delete(tx, (Delete) mutation);
        } else if (mutation instanceof Increment) {
            return increment((Increment) mutation);
        } else if (mutation instanceof Append) {
            return append((Append) mutation);
        } else {
            throw new UnsupportedOperationException(mutation.getClass().getSimpleName() + " is not a Put, Delete,"
                    + " Increment or Append");
        }
        return Result.EMPTY_RESULT;
    }

    private boolean conditionHolds(CheckAndMutate check) throws IOException {
        Get get = new Get(check.getRow());
        if (check.hasFilter()) {
            return !table.getForWrite(tx, get.setFilter(check.getFilter())).isEmpty();
        }
        Cell cell = table.getForWrite(tx, get.addColumn(check.getFamily(), check.getQualifier()))
                .getColumnLatestCell(check.getFamily(), check.getQualifier());
        byte[] expected = check.getValue();
        CompareOperator op = check.getCompareOp();
        if (expected == null || expected.length == 0) {
            boolean absentOrEmpty = cell == null || cell.getValueLength() == 0;
            return absentOrEmpty == (op != CompareOperator.NOT_EQUAL);
        }
        if (cell == null) {
            return false;
        }
        int comparison = Bytes.compareTo(expected, 0, expected.length,
                cell.getValueArray(), cell.getValueOffset(), cell.getValueLength());
        switch (op) {
            case LESS:
                return comparison < 0;
            case LESS_OR_EQUAL:
                return comparison <= 0;
            case EQUAL:
                return comparison == 0;
            case NOT_EQUAL:
                return comparison != 0;
            case GREATER_OR_EQUAL:
                return comparison >= 0;
            case GREATER:
                return comparison > 0;
            default:
                throw new IllegalArgumentException("checkAndMutate cannot compare with " + op);
        }
    }

    private static long currentLong(Result current, byte[] family, byte[] qualifier) {
        Cell cell = current.getColumnLatestCell(family, qualifier);
        if (cell == null) {
            return 0;
        }
        if (cell.getValueLength() != Bytes.SIZEOF_LONG) {
            throw new IllegalArgumentException("column " + Bytes.toStringBinary(family) + ":"
                    + Bytes.toStringBinary(qualifier) + " of row " + Bytes.toStringBinary(current.getRow()) + " holds "
                    + cell.getValueLength() + " bytes, not an 8-byte long (Bytes.toBytes(long)): it cannot be"
                    + " incremented");
        }
        return Bytes.toLong(cell.getValueArray(), cell.getValueOffset());
    }

    private static Get columnsOf(Mutation mutation) {
        Get get = new Get(mutation.getRow());
        for (Map.Entry<byte[], List<Cell>> family : mutation.getFamilyCellMap().entrySet()) {
            for (Cell cell : family.getValue()) {
                get.addColumn(family.getKey(), CellUtil.cloneQualifier(cell));
            }
        }
        return get;
    }

    private static void checkAllTime(Mutation mutation, TimeRange timeRange, String kind) {
        if (!timeRange.isAllTime() || mutation.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
            throw new TimestampNotAllowedException(kind);
        }
    }

    /**
     * The written values as a Result, at the transaction's current write version, as the caller of Increment or Append
     * expects.
     */
    private Result resultOf(Put put) {
        List<Cell> cells = new ArrayList<>();
        for (List<Cell> family : put.getFamilyCellMap().values()) {
            for (Cell cell : family) {
                cells.add(CellBuilderFactory.create(CellBuilderType.DEEP_COPY)
                        .setRow(put.getRow())
                        .setFamily(CellUtil.cloneFamily(cell))
                        .setQualifier(CellUtil.cloneQualifier(cell))
                        .setTimestamp(tx.writeVersion())
                        .setType(Cell.Type.Put)
                        .setValue(CellUtil.cloneValue(cell))
                        .build());
            }
        }
        cells.sort(CellComparator.getInstance());
        return Result.create(cells);
    }
}
