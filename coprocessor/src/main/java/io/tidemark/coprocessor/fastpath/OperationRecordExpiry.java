package io.tidemark.coprocessor.fastpath;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

import java.io.IOException;
import java.util.List;

/**
 * Wraps a compaction's scanner and leaves out the fast-path operation records written before a given time (the
 * compaction's start minus the records' TTL), so rows shed the records of streams no client uses any more even where
 * no later fast-path write removes them. Dropping a record at compaction leaves no delete marker behind.
 */
final class OperationRecordExpiry implements InternalScanner {

    private final InternalScanner stored;
    private final long writtenBefore;

    OperationRecordExpiry(InternalScanner stored, long writtenBefore) {
        this.stored = stored;
        this.writtenBefore = writtenBefore;
    }

    @Override
    public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
        int first = result.size();
        boolean more = stored.next(result, scannerContext);
        result.subList(first, result.size()).removeIf(this::isExpiredRecord);
        return more;
    }

    private boolean isExpiredRecord(Cell c) {
        return c.getType() == Cell.Type.Put && c.getTimestamp() == CellEncoding.OPERATION_RECORD_TIMESTAMP
                && CellEncoding.isOperationRecordQualifier(c.getQualifierArray(), c.getQualifierOffset(),
                        c.getQualifierLength())
                && RowOperationRecords.isExpired(c, writtenBefore);
    }

    @Override
    public void close() throws IOException {
        stored.close();
    }
}
