package io.tidemark.fastpath;

import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The names and codes the fast-path client and the fast-path coprocessor share (docs/fast-path.md, "Wire format").
 *
 * <p>A fast-path operation travels as an HBase {@code Get} whose attributes describe it; {@link FastPathRequest}
 * encodes and decodes them. The coprocessor runs it in {@code preGetOp} and answers with the cells of the Get's
 * Result: user cells (what was read, or the new value of a counter) plus cells of the {@link #META_FAMILY} carrying
 * the row version and whether a check-and-mutate was applied. Generic transactions mark their reads and tentative
 * writes with {@link #TRANSACTION_START} so that the coprocessor can keep the fast path consistent with them.
 */
public final class FastPathProtocol {

    /** Start timestamp of the generic transaction that issues a Get, Scan or tentative Put (8 bytes). */
    public static final String TRANSACTION_START = "tm.tx.start";

    /** The fast-path operation (1 byte, {@link Operation#code()}). */
    public static final String OPERATION = "tm.fp.op";
    /** The largest version or timestamp the client has seen or written (8 bytes). */
    public static final String SESSION = "tm.fp.session";
    /** A TSO timestamp the client obtained after the region refused to mint (8 bytes); needs {@link #INCARNATION}. */
    public static final String FRESH_TIMESTAMP = "tm.fp.fresh";
    /** The region incarnation whose refusal the {@link #FRESH_TIMESTAMP} answers (8 bytes). */
    public static final String INCARNATION = "tm.fp.incarnation";
    /** Writes: the stream id and sequence number of the operation ({@link IdempotencyKey}, 24 bytes). */
    public static final String IDEMPOTENCY_KEY = "tm.fp.key";
    /** Writes: how long, in ms, the client may send attempts of this operation (8 bytes). */
    public static final String OPERATION_TIMEOUT = "tm.fp.timeout-ms";
    /** The user's Put or Delete, as a serialized HBase MutationProto. */
    public static final String MUTATION = "tm.fp.mutation";
    /** Conditional write: the row version read earlier; the write fails if the row changed since (8 bytes). */
    public static final String EXPECTED_VERSION = "tm.fp.expected-version";
    /** Check-and-mutate: the checked column's family, qualifier and expected value (absent = column absent). */
    public static final String CHECK_FAMILY = "tm.fp.check-family";
    public static final String CHECK_QUALIFIER = "tm.fp.check-qualifier";
    public static final String CHECK_VALUE = "tm.fp.check-value";
    /** Increment: the amount added to the counter column named by the Get (8 bytes). */
    public static final String DELTA = "tm.fp.delta";

    /** Family of the answer's metadata cells; never a user family (it starts with a zero byte). */
    public static final byte[] META_FAMILY = {0x00, 't', 'm', '.', 'f', 'p'};
    /** Metadata cell: the row's version after the operation (8 bytes). */
    public static final byte[] VERSION_QUALIFIER = Bytes.toBytes("version");
    /** Metadata cell of a check-and-mutate: 1 when the mutation was applied, 0 when the check failed. */
    public static final byte[] APPLIED_QUALIFIER = Bytes.toBytes("applied");

    /** The operations of the fast path. */
    public enum Operation {
        /** The paper's brc: the latest committed version of the row. */
        READ(1),
        /**
         * The paper's br: like READ, but fails if the row has an unresolved write, so a conditional write can follow.
         */
        READ_FOR_UPDATE(2),
        /** The paper's bwc: a Put or Delete committed at a newly minted version. */
        WRITE(3),
        /** The paper's wc: a WRITE that fails if the row was written since {@link #EXPECTED_VERSION}. */
        CONDITIONAL_WRITE(4),
        /** A WRITE applied only if the checked column's latest committed value is the expected one. */
        CHECK_AND_MUTATE(5),
        /** Adds {@link #DELTA} to an 8-byte counter column. */
        INCREMENT(6),
        /**
         * Not a fast-path operation: the code under which a region records a generic transaction's single-region
         * commit ({@code io.tidemark.singleregion.SingleRegionCommitRequest}) in its operation record. A fast-path
         * request naming it is refused.
         */
        SINGLE_REGION_COMMIT(7);

        private final byte code;

        Operation(int code) {
            this.code = (byte) code;
        }

        public byte code() {
            return code;
        }

        /** Whether the operation writes, so needs the row lock, a minted version and an idempotency key. */
        public boolean writes() {
            return this != READ && this != READ_FOR_UPDATE;
        }

        /** @throws IllegalArgumentException no operation has this code */
        public static Operation fromCode(byte code) {
            for (Operation op : values()) {
                if (op.code == code) {
                    return op;
                }
            }
            throw new IllegalArgumentException("unknown fast-path operation code " + code + "; this server knows "
                    + "codes 1 to " + values().length + " (is the client newer than the coprocessor?)");
        }
    }

    private FastPathProtocol() {
    }

    /** Marks a generic transaction's read or tentative write with its start timestamp. */
    public static void markTransaction(OperationWithAttributes operation, long startTimestamp) {
        operation.setAttribute(TRANSACTION_START, Bytes.toBytes(startTimestamp));
    }

    /**
     * The long in attribute {@code name}, or {@code absent} when the operation does not carry it.
     *
     * @throws IllegalArgumentException the attribute does not hold 8 bytes
     */
    public static long longAttribute(OperationWithAttributes operation, String name, long absent) {
        byte[] value = operation.getAttribute(name);
        if (value == null) {
            return absent;
        }
        if (value.length != Bytes.SIZEOF_LONG) {
            throw new IllegalArgumentException("attribute " + name + " must hold 8 bytes (a big-endian long), had "
                    + value.length);
        }
        return Bytes.toLong(value);
    }
}
