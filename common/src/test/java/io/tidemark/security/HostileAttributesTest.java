package io.tidemark.security;

import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import io.tidemark.protocol.CommitMode;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.table.TableLoad;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every request attribute a region server parses, fuzzed (issue 32): random bytes, and valid encodings with bytes
 * flipped, cut or appended. A decoder either returns a value or refuses with the clear error its contract names
 * ({@link IllegalArgumentException}, {@link IllegalStateException} for a stored operation record, or HBase's
 * {@link DoNotRetryIOException} for a whole request); never another
 * exception, which a region server would report as an internal error, or worse, survive as a wrong answer.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class HostileAttributesTest {

    private static final int ROUNDS = 5_000;
    private static final String[] FAST_PATH_ATTRIBUTES = {FastPathProtocol.OPERATION, FastPathProtocol.SESSION,
            FastPathProtocol.FRESH_TIMESTAMP, FastPathProtocol.INCARNATION, FastPathProtocol.IDEMPOTENCY_KEY,
            FastPathProtocol.OPERATION_TIMEOUT, FastPathProtocol.MUTATION, FastPathProtocol.EXPECTED_VERSION,
            FastPathProtocol.CHECK_FAMILY, FastPathProtocol.CHECK_QUALIFIER, FastPathProtocol.CHECK_VALUE,
            FastPathProtocol.DELTA};

    private final Random random = new Random(32);

    @Test
    void aSnapshotAttributeDecodesOrIsRefusedClearly() {
        byte[] valid = new SnapshotAttribute(1L << 40, 1L << 30, (1L << 40) - 1, false, CommitMode.LOW_LATENCY,
                "tidemark:commits", 4).encode();
        for (int i = 0; i < ROUNDS; i++) {
            byte[] value = i % 2 == 0 ? randomBytes(64) : mangled(valid);
            try {
                SnapshotAttribute.decode(value);
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
            } catch (RuntimeException e) {
                fail("decode(" + Bytes.toStringBinary(value) + ") threw " + e, e);
            }
        }
    }

    @Test
    void aFastPathRequestIsParsedOrRefusedClearly() throws Exception {
        Get valid = FastPathRequest.builder(FastPathProtocol.Operation.CONDITIONAL_WRITE, Bytes.toBytes("row"))
                .mutation(new Put(Bytes.toBytes("row")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"),
                        Bytes.toBytes("v")))
                .session(1L << 40).idempotencyKey(new IdempotencyKey(new byte[16], 3)).operationTimeoutMillis(60_000)
                .expectedVersion(1L << 40).build().toGet();
        for (int i = 0; i < ROUNDS; i++) {
            Get hostile = new Get(Bytes.toBytes("row"));
            for (String name : FAST_PATH_ATTRIBUTES) {
                byte[] original = valid.getAttribute(name);
                int dice = random.nextInt(4);
                if (dice == 0 || (original == null && dice == 1)) {
                    continue;
                }
                hostile.setAttribute(name, dice == 1 ? original : dice == 2 ? randomBytes(40)
                        : mangled(original == null ? randomBytes(8) : original));
            }
            hostile.setAttribute(FastPathProtocol.OPERATION, new byte[] {(byte) random.nextInt(9)});
            try {
                FastPathRequest.fromGet(hostile);
            } catch (DoNotRetryIOException expected) {
                assertTrue(expected.getMessage().startsWith("bad fast-path request"), expected.getMessage());
            } catch (RuntimeException e) {
                fail("fromGet(" + hostile.getAttributesMap().keySet() + ") threw " + e, e);
            }
        }
    }

    @Test
    void aSingleRegionCommitRequestIsParsedOrRefusedClearly() {
        long snapshot = 1L << 40;
        byte[] valid = SingleRegionCommitRequest.commit(snapshot, List.of(
                new Put(Bytes.toBytes("row")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), snapshot,
                        Bytes.toBytes("v")),
                new Put(Bytes.toBytes("row2")).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q\u0000tm.d"), snapshot,
                        new byte[] {1})))
                .region("0123456789abcdef0123456789abcdef").idempotencyKey(new IdempotencyKey(new byte[16], 3))
                .operationTimeoutMillis(60_000).build().toGet().getAttribute(SingleRegionCommitRequest.ATTRIBUTE);
        for (int i = 0; i < ROUNDS; i++) {
            Get hostile = new Get(Bytes.toBytes("row"));
            hostile.setAttribute(SingleRegionCommitRequest.ATTRIBUTE, i % 3 == 0 ? randomBytes(200) : mangled(valid));
            try {
                SingleRegionCommitRequest.fromGet(hostile);
            } catch (DoNotRetryIOException expected) {
                assertTrue(expected.getMessage().startsWith("bad single-region commit request"),
                        expected.getMessage());
            } catch (RuntimeException e) {
                fail("fromGet(" + Bytes.toStringBinary(hostile.getAttribute(SingleRegionCommitRequest.ATTRIBUTE))
                        + ") threw " + e, e);
            }
        }
    }

    @Test
    void anIdempotencyKeyAndAnOperationRecordDecodeOrAreRefusedClearly() {
        for (int i = 0; i < ROUNDS; i++) {
            byte[] value = randomBytes(48);
            try {
                IdempotencyKey.decode(value);
            } catch (IllegalArgumentException expected) {
                // refused, saying why
            } catch (RuntimeException e) {
                fail("IdempotencyKey.decode(" + Bytes.toStringBinary(value) + ") threw " + e, e);
            }
            try {
                OperationRecord.decode(value, 0, value.length);
            } catch (IllegalStateException | IllegalArgumentException expected) {
                // refused, saying why
            } catch (RuntimeException e) {
                fail("OperationRecord.decode(" + Bytes.toStringBinary(value) + ") threw " + e, e);
            }
        }
    }

    @Test
    void aBulkLoadMarkIsJudgedOrRefusedClearly() {
        TableLoad loading = TableLoad.at(1L << 40);
        for (int i = 0; i < ROUNDS; i++) {
            Put put = new Put(Bytes.toBytes("row"));
            put.setAttribute(TableLoad.WRITE_ATTRIBUTE, randomBytes(12));
            try {
                assertTrue(TableLoad.isMarked(put));
                loading.accepts(put);
                TableLoad.NONE.accepts(put);
            } catch (IllegalArgumentException expected) {
                // refused, saying why
            } catch (RuntimeException e) {
                fail("a load mark " + Bytes.toStringBinary(put.getAttribute(TableLoad.WRITE_ATTRIBUTE)) + " threw "
                        + e, e);
            }
        }
    }

    private byte[] randomBytes(int maxLength) {
        byte[] value = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(value);
        return value;
    }

    /** {@code valid} with a few bytes flipped, cut short, or with bytes appended. */
    private byte[] mangled(byte[] valid) {
        List<Byte> bytes = new ArrayList<>();
        for (byte b : valid) {
            bytes.add(b);
        }
        switch (random.nextInt(3)) {
            case 0:
                for (int k = 0; k < 1 + random.nextInt(3) && !bytes.isEmpty(); k++) {
                    bytes.set(random.nextInt(bytes.size()), (byte) random.nextInt(256));
                }
                break;
            case 1:
                bytes = bytes.subList(0, random.nextInt(bytes.size() + 1));
                break;
            default:
                for (int k = 0; k < 1 + random.nextInt(8); k++) {
                    bytes.add((byte) random.nextInt(256));
                }
        }
        byte[] out = new byte[bytes.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = bytes.get(k);
        }
        return out;
    }
}
