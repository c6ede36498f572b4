package io.tidemark.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fast-path request on the wire: what the client encodes, the region server decodes to the same request. */
class FastPathRequestTest {

    private static final byte[] ROW = Bytes.toBytes("row");
    private static final byte[] F = Bytes.toBytes("f");
    private static final byte[] Q = Bytes.toBytes("q");
    private static final long T = 7 * Timestamps.TSO_STEP;
    private static final IdempotencyKey KEY = new IdempotencyKey(stream(3), 42);

    @Test
    void aReadTravelsWithItsColumnsAndSession() throws Exception {
        FastPathRequest sent = FastPathRequest.builder(Operation.READ, ROW)
                .columns(new Get(ROW).addColumn(F, Q).addFamily(Bytes.toBytes("g")).getFamilyMap())
                .session(T + 3).build();
        FastPathRequest received = FastPathRequest.fromGet(sent.toGet());
        assertEquals(Operation.READ, received.operation());
        assertArrayEquals(ROW, received.row());
        assertEquals(T + 3, received.session());
        assertTrue(received.columns().get(F).contains(Q));
        assertNull(received.columns().get(Bytes.toBytes("g")), "a whole family");
        assertNull(received.idempotencyKey());
        assertEquals(Timestamps.NONE, received.freshTimestamp());
    }

    @Test
    void everyWriteTravelsWithItsKeyTimeoutAndOperands() throws Exception {
        Put put = new Put(ROW).addColumn(F, Q, Bytes.toBytes("v"));
        FastPathRequest conditional = roundTrip(write(Operation.CONDITIONAL_WRITE).mutation(put)
                .expectedVersion(T + 1).freshTimestamp(T, 0x1234L));
        assertEquals(KEY, conditional.idempotencyKey());
        assertEquals(5000, conditional.operationTimeoutMillis());
        assertEquals(T + 1, conditional.expectedVersion());
        assertEquals(T, conditional.freshTimestamp());
        assertEquals(0x1234L, conditional.incarnation());
        assertArrayEquals(Bytes.toBytes("v"), CellUtil.cloneValue(((Put) conditional.mutation()).get(F, Q).get(0)));

        FastPathRequest check = roundTrip(write(Operation.CHECK_AND_MUTATE).mutation(new Delete(ROW).addFamily(F))
                .check(F, Q, null));
        assertTrue(check.mutation() instanceof Delete);
        assertArrayEquals(Q, check.checkQualifier());
        assertNull(check.checkValue(), "expects the column absent");

        FastPathRequest increment = roundTrip(write(Operation.INCREMENT).column(F, Q).delta(-5));
        assertEquals(-5, increment.delta());
        assertArrayEquals(F, increment.counterFamily());
        assertArrayEquals(Q, increment.counterQualifier());
    }

    @Test
    void badRequestsGetAClearDoNotRetryError() {
        assertRefused(get -> get.setAttribute(FastPathProtocol.OPERATION, new byte[] {99}), "unknown fast-path"
                + " operation code 99");
        assertRefused(get -> get.setAttribute(FastPathProtocol.OPERATION, new byte[] {7}), "not a fast-path"
                + " operation");
        assertRefused(get -> get.setAttribute(FastPathProtocol.OPERATION, new byte[0]), "one byte");
        assertRefused(get -> get.setAttribute(FastPathProtocol.SESSION, new byte[3]), "8 bytes");
        assertRefused(get -> get.setAttribute(FastPathProtocol.IDEMPOTENCY_KEY, null), "idempotency key");
        assertRefused(get -> get.setAttribute(FastPathProtocol.IDEMPOTENCY_KEY, new byte[5]), "24 bytes");
        assertRefused(get -> get.setAttribute(FastPathProtocol.OPERATION_TIMEOUT, null), "operation timeout");
        assertRefused(get -> get.setAttribute(FastPathProtocol.FRESH_TIMESTAMP, Bytes.toBytes(T + 1)),
                "must be a TSO timestamp");
        assertRefused(get -> get.setAttribute(FastPathProtocol.FRESH_TIMESTAMP, Bytes.toBytes(T)),
                "incarnation of the region that refused");
        assertRefused(get -> get.setAttribute(FastPathProtocol.MUTATION, null), "needs the Put or Delete");
        assertRefused(get -> get.setAttribute(FastPathProtocol.MUTATION, new byte[] {1, 2, 3}), "bad fast-path");
        assertRefused(get -> get.setAttribute(FastPathProtocol.EXPECTED_VERSION, null), "read for update");
    }

    @Test
    void theClientCannotBuildARequestTheServerWouldRefuse() {
        byte[] metadata = CellEncoding.shadowQualifier(Q);
        assertThrows(IllegalArgumentException.class, () -> write(Operation.WRITE)
                .mutation(new Put(ROW).addColumn(F, metadata, Bytes.toBytes("x"))).build());
        IllegalArgumentException timestamp = assertThrows(IllegalArgumentException.class, () -> write(Operation.WRITE)
                .mutation(new Put(ROW).addColumn(F, Q, 5L, Bytes.toBytes("x"))).build());
        assertTrue(timestamp.getMessage().contains("no user timestamp"), timestamp.getMessage());
        IllegalArgumentException otherRow = assertThrows(IllegalArgumentException.class, () -> write(Operation.WRITE)
                .mutation(new Put(Bytes.toBytes("other")).addColumn(F, Q, Bytes.toBytes("x"))).build());
        assertTrue(otherRow.getMessage().contains("differs from the request's row"), otherRow.getMessage());
        assertThrows(IllegalArgumentException.class, () -> write(Operation.INCREMENT)
                .columns(new Get(ROW).addColumn(F, Q).addColumn(F, Bytes.toBytes("r")).getFamilyMap()).delta(1)
                .build());
        assertThrows(IllegalArgumentException.class, () -> write(Operation.CHECK_AND_MUTATE)
                .mutation(new Put(ROW).addColumn(F, Q, Bytes.toBytes("x"))).build());
        assertThrows(IllegalArgumentException.class, () -> FastPathRequest.builder(Operation.READ, ROW)
                .columns(new Get(ROW).addColumn(F, metadata).getFamilyMap()).build());
        assertFalse(FastPathRequest.isFastPath(new Get(ROW)));
    }

    @Test
    void anIdempotencyKeyNamesItsStreamsRecord() {
        IdempotencyKey decoded = IdempotencyKey.decode(KEY.encode());
        assertEquals(KEY, decoded);
        assertArrayEquals(stream(3), decoded.streamId());
        byte[] qualifier = decoded.recordQualifier();
        assertTrue(CellEncoding.isOperationRecordQualifier(qualifier, 0, qualifier.length));
        assertTrue(CellEncoding.isMetadataQualifier(qualifier), "records are metadata, refused as user qualifiers");
        assertArrayEquals(stream(3), CellEncoding.userQualifier(qualifier, 0, qualifier.length));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(new byte[8], 1));
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(stream(1), 0));
    }

    private static FastPathRequest.Builder write(Operation op) {
        return FastPathRequest.builder(op, ROW).idempotencyKey(KEY).operationTimeoutMillis(5000);
    }

    private static FastPathRequest roundTrip(FastPathRequest.Builder request) throws Exception {
        return FastPathRequest.fromGet(request.build().toGet());
    }

    /** Decoding a valid conditional write after {@code change} fails with a message containing {@code message}. */
    private static void assertRefused(Consumer<Get> change, String message) {
        Get get;
        try {
            get = write(Operation.CONDITIONAL_WRITE).mutation(new Put(ROW).addColumn(F, Q, Bytes.toBytes("v")))
                    .expectedVersion(T).build().toGet();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        change.accept(get);
        DoNotRetryIOException e = assertThrows(DoNotRetryIOException.class, () -> FastPathRequest.fromGet(get));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    private static byte[] stream(int fill) {
        byte[] id = new byte[IdempotencyKey.STREAM_ID_LENGTH];
        Arrays.fill(id, (byte) fill);
        return id;
    }
}
