package io.tidemark.coprocessor.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What a compaction keeps of the operation records (the mini-cluster test compacts a real region). */
class OperationRecordExpiryTest {

    private static final byte[] ROW = Bytes.toBytes("row");
    private static final byte[] F = Bytes.toBytes("f");

    @Test
    void dropsOnlyRecordsWrittenBeforeTheHorizon() throws Exception {
        Cell old = record(1, 999);
        Cell recent = record(2, 1000);
        Cell data = new KeyValue(ROW, F, Bytes.toBytes("q"), 4097, Bytes.toBytes("v"));
        Cell unreadable = new KeyValue(ROW, F, CellEncoding.operationRecordQualifier(stream(3)),
                CellEncoding.OPERATION_RECORD_TIMESTAMP, new byte[] {9});
        List<List<Cell>> batches = List.of(List.of(old, data), List.of(recent, unreadable));
        InternalScanner expiry = new OperationRecordExpiry(scanner(batches), 1000);
        List<Cell> kept = new ArrayList<>();
        List<Cell> batch = new ArrayList<>();
        boolean more;
        do {
            batch.clear();
            more = expiry.next(batch, null);
            kept.addAll(batch);
        } while (more);
        assertEquals(List.of(data, recent, unreadable), kept, "a record this code cannot read is kept");
        assertFalse(more);
    }

    private static Cell record(int stream, long writtenAt) {
        return new KeyValue(ROW, F, new IdempotencyKey(stream(stream), 1).recordQualifier(),
                CellEncoding.OPERATION_RECORD_TIMESTAMP,
                new OperationRecord(Operation.WRITE, 1, writtenAt, 4097, true, 0).encode());
    }

    private static byte[] stream(int fill) {
        byte[] id = new byte[IdempotencyKey.STREAM_ID_LENGTH];
        Arrays.fill(id, (byte) fill);
        return id;
    }

    private static InternalScanner scanner(List<List<Cell>> batches) {
        Deque<List<Cell>> left = new ArrayDeque<>(batches);
        return new InternalScanner() {
            @Override
            public boolean next(List<Cell> result, ScannerContext scannerContext) {
                result.addAll(left.poll());
                return !left.isEmpty();
            }

            @Override
            public void close() {
            }
        };
    }
}
