package io.tidemark.singleregion;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The single-region commit request on the wire: what the client encodes, the region server decodes the same. */
class SingleRegionCommitRequestTest {

    private static final byte[] F = Bytes.toBytes("f");
    private static final byte[] Q = Bytes.toBytes("q");
    private static final long S = 9 * Timestamps.TSO_STEP;
    private static final IdempotencyKey KEY = new IdempotencyKey(new byte[IdempotencyKey.STREAM_ID_LENGTH], 7);

    @Test
    void aCommitTravelsToItsSmallestRowWithEveryRowSorted() throws Exception {
        Put b = new Put(Bytes.toBytes("b")).addColumn(F, Q, S, Bytes.toBytes("vb"));
        b.setDurability(Durability.ASYNC_WAL);
        Put a = new Put(Bytes.toBytes("a")).addColumn(F, CellEncoding.tombstoneQualifier(Q), S,
                CellEncoding.TOMBSTONE_DELETE);
        SingleRegionCommitRequest sent = SingleRegionCommitRequest.commit(S, List.of(b, a)).region("abc123")
                .idempotencyKey(KEY).operationTimeoutMillis(60_000).freshTimestamp(S + Timestamps.TSO_STEP, 5)
                .build();
        Get get = sent.toGet();
        assertArrayEquals(Bytes.toBytes("a"), get.getRow(), "sent to the anchor row");
        assertTrue(SingleRegionCommitRequest.isSingleRegionCommit(get));
        SingleRegionCommitRequest received = SingleRegionCommitRequest.fromGet(get);
        assertEquals(S, received.snapshot());
        assertEquals("abc123", received.region());
        assertEquals(KEY, received.idempotencyKey());
        assertEquals(60_000, received.operationTimeoutMillis());
        assertEquals(S + Timestamps.TSO_STEP, received.freshTimestamp());
        assertEquals(5, received.incarnation());
        assertFalse(received.isSettle());
        assertEquals(2, received.rows().size());
        assertArrayEquals(Bytes.toBytes("a"), received.rows().get(0).getRow());
        Put second = received.rows().get(1);
        assertEquals(Durability.ASYNC_WAL, second.getDurability());
        assertArrayEquals(Bytes.toBytes("vb"), CellUtil.cloneValue(second.get(F, Q).get(0)));
    }

    @Test
    void aSettleNamesOnlyItsKeyAndAnchorRow() throws Exception {
        SingleRegionCommitRequest sent = SingleRegionCommitRequest.settle(S, Bytes.toBytes("a")).idempotencyKey(KEY)
                .operationTimeoutMillis(1_000).build();
        SingleRegionCommitRequest received = SingleRegionCommitRequest.fromGet(sent.toGet());
        assertTrue(received.isSettle());
        assertTrue(received.rows().isEmpty());
        assertEquals(KEY, received.idempotencyKey());
    }

    @Test
    void whatATentativeWriteCouldNotBeIsRefusedOnBothSides() {
        Put wrongVersion = new Put(Bytes.toBytes("a")).addColumn(F, Q, S + 1, Bytes.toBytes("v"));
        Put shadow = new Put(Bytes.toBytes("a")).addColumn(F, CellEncoding.shadowQualifier(Q), S, Bytes.toBytes(S));
        Put badTombstone = new Put(Bytes.toBytes("a")).addColumn(F, CellEncoding.tombstoneQualifier(Q), S,
                Bytes.toBytes("xx"));
        for (Put p : List.of(wrongVersion, shadow, badTombstone)) {
            assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S, List.of(p))
                    .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build());
        }
        Put ok = new Put(Bytes.toBytes("a")).addColumn(F, Q, S, Bytes.toBytes("v"));
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S + 1, List.of(ok))
                .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(), "a snapshot is a TSO timestamp");
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S, List.of(ok, ok))
                .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(), "one Put per row");
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S, List.of(ok))
                .idempotencyKey(KEY).operationTimeoutMillis(1).build(), "the expected region is named");

        Get elsewhere = new Get(Bytes.toBytes("b"));
        elsewhere.setAttribute(SingleRegionCommitRequest.ATTRIBUTE, SingleRegionCommitRequest.commit(S, List.of(ok))
                .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build().toGet()
                .getAttribute(SingleRegionCommitRequest.ATTRIBUTE));
        DoNotRetryIOException refused = assertThrows(DoNotRetryIOException.class,
                () -> SingleRegionCommitRequest.fromGet(elsewhere));
        assertTrue(refused.getMessage().contains("smallest row"), refused.getMessage());
    }

    @Test
    void aWriteOnlyCommitCarriesItsFloorInAFormatOlderRegionServersRefuse() throws Exception {
        long floor = S + 3;
        Put a = new Put(Bytes.toBytes("a")).addColumn(F, Q, Timestamps.NONE, Bytes.toBytes("v"));
        Get get = SingleRegionCommitRequest.writeOnly(floor, List.of(a)).region("abc123").idempotencyKey(KEY)
                .operationTimeoutMillis(60_000).build().toGet();
        assertEquals(SingleRegionCommitRequest.WRITE_ONLY_FORMAT,
                get.getAttribute(SingleRegionCommitRequest.ATTRIBUTE)[0], "a format region servers before it refuse");
        SingleRegionCommitRequest received = SingleRegionCommitRequest.fromGet(get);
        assertTrue(received.isWriteOnly());
        assertEquals(floor, received.floor());
        assertEquals(Timestamps.NONE, received.snapshot(), "no snapshot");
        assertEquals(1, received.rows().size());

        SingleRegionCommitRequest settle = SingleRegionCommitRequest.fromGet(SingleRegionCommitRequest
                .settleWriteOnly(floor, Bytes.toBytes("a")).idempotencyKey(KEY).operationTimeoutMillis(1).build()
                .toGet());
        assertTrue(settle.isWriteOnly() && settle.isSettle());

        Put atASnapshot = new Put(Bytes.toBytes("a")).addColumn(F, Q, S, Bytes.toBytes("v"));
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.writeOnly(floor,
                List.of(atASnapshot)).region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(),
                "a write-only commit's cells are at version 0");
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.writeOnly(-1, List.of(a))
                .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(), "a floor is a timestamp");
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S, List.of(a))
                .region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(),
                "a commit with a snapshot has its cells at it");
    }

    @Test
    void aWriteOnlyCommitNamesTheWrittenRowsItReadWithTheirVersionsInFormat3() throws Exception {
        Put a = new Put(Bytes.toBytes("a")).addColumn(F, Q, Timestamps.NONE, Bytes.toBytes("v"));
        Put b = new Put(Bytes.toBytes("b")).addColumn(F, Q, Timestamps.NONE, Bytes.toBytes("w"));
        Get get = SingleRegionCommitRequest.writeOnly(S, List.of(b, a)).readAt(Bytes.toBytes("b"), 12345)
                .region("abc123").idempotencyKey(KEY).operationTimeoutMillis(60_000).build().toGet();
        assertEquals(SingleRegionCommitRequest.READ_CHECKED_FORMAT,
                get.getAttribute(SingleRegionCommitRequest.ATTRIBUTE)[0]);
        SingleRegionCommitRequest received = SingleRegionCommitRequest.fromGet(get);
        assertTrue(received.isWriteOnly() && received.checksReads());
        assertEquals(12345, received.versionRead(Bytes.toBytes("b")));
        assertEquals(SingleRegionCommitRequest.NOT_READ, received.versionRead(Bytes.toBytes("a")));
        assertEquals(S, received.floor());

        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.writeOnly(S, List.of(a))
                .readAt(Bytes.toBytes("z"), 1).region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(),
                "a row read must be a written row, whose lock the commit holds");
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.writeOnly(S, List.of(a))
                .readAt(Bytes.toBytes("a"), -2).region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(),
                "a version is 0 or more");
        Put atS = new Put(Bytes.toBytes("a")).addColumn(F, Q, S, Bytes.toBytes("v"));
        assertThrows(IllegalArgumentException.class, () -> SingleRegionCommitRequest.commit(S, List.of(atS))
                .readAt(Bytes.toBytes("a"), 1).region("r").idempotencyKey(KEY).operationTimeoutMillis(1).build(),
                "a transaction with a snapshot read at it");

        byte[] attribute = get.getAttribute(SingleRegionCommitRequest.ATTRIBUTE);
        byte[] badIndex = attribute.clone();
        badIndex[badIndex.length - 12 + 3] = 7; // the row read's index: 7 of 2 written rows
        Get forged = new Get(Bytes.toBytes("a"));
        forged.setAttribute(SingleRegionCommitRequest.ATTRIBUTE, badIndex);
        DoNotRetryIOException refused = assertThrows(DoNotRetryIOException.class,
                () -> SingleRegionCommitRequest.fromGet(forged));
        assertTrue(refused.getMessage().contains("not one of the 2 written rows"), refused.getMessage());
    }
}
