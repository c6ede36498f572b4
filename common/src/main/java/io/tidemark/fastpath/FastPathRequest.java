package io.tidemark.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One fast-path operation, as the client sends it and the region server runs it (docs/fast-path.md, "Wire format").
 * The client builds it and encodes it into the attributes of an HBase Get ({@link #toGet}); the coprocessor decodes
 * it once ({@link #fromGet}). Both go through {@link Builder#build}, so what makes a request valid is written here
 * once: the client fails early with an {@link IllegalArgumentException}, the region server answers bad input with a
 * {@link DoNotRetryIOException}.
 *
 * <p>The request holds the user's Put or Delete as given; do not change it after building.
 */
public final class FastPathRequest {

    private static final long ABSENT = -1;

    private final Operation operation;
    private final byte[] row;
    private final NavigableMap<byte[], NavigableSet<byte[]>> columns;
    private final @Nullable Mutation mutation;
    private final long session;
    private final long freshTimestamp;
    private final long incarnation;
    private final @Nullable IdempotencyKey idempotencyKey;
    private final long operationTimeoutMillis;
    private final long expectedVersion;
    private final byte @Nullable [] checkFamily;
    private final byte @Nullable [] checkQualifier;
    private final byte @Nullable [] checkValue;
    private final @Nullable Long delta;

    private FastPathRequest(Builder b) {
        this.operation = b.operation;
        this.row = b.row;
        this.columns = Collections.unmodifiableNavigableMap(b.columns);
        this.mutation = b.mutation;
        this.session = b.session;
        this.freshTimestamp = b.freshTimestamp;
        this.incarnation = b.incarnation;
        this.idempotencyKey = b.idempotencyKey;
        this.operationTimeoutMillis = b.operationTimeoutMillis;
        this.expectedVersion = b.expectedVersion;
        this.checkFamily = b.checkFamily;
        this.checkQualifier = b.checkQualifier;
        this.checkValue = b.checkValue;
        this.delta = b.delta;
    }

    public static Builder builder(Operation operation, byte[] row) {
        return new Builder(operation, row);
    }

    /** A builder holding everything this request holds, to change a field (the session, a fresh timestamp). */
    public Builder toBuilder() {
        Builder b = new Builder(operation, row);
        b.columns = new TreeMap<>(columns);
        b.mutation = mutation;
        b.session = session;
        b.freshTimestamp = freshTimestamp;
        b.incarnation = incarnation;
        b.idempotencyKey = idempotencyKey;
        b.operationTimeoutMillis = operationTimeoutMillis;
        b.expectedVersion = expectedVersion;
        b.checkFamily = checkFamily;
        b.checkQualifier = checkQualifier;
        b.checkValue = checkValue;
        b.delta = delta;
        return b;
    }

    /** The Get that carries this request: its row, its columns and one attribute per field that is set. */
    public Get toGet() throws IOException {
        Get get = new Get(row);
        for (Map.Entry<byte[], NavigableSet<byte[]>> family : columns.entrySet()) {
            if (family.getValue() == null || family.getValue().isEmpty()) {
                get.addFamily(family.getKey());
            } else {
                for (byte[] qualifier : family.getValue()) {
                    get.addColumn(family.getKey(), qualifier);
                }
            }
        }
        get.setAttribute(FastPathProtocol.OPERATION, new byte[] {operation.code()});
        get.setAttribute(FastPathProtocol.SESSION, Bytes.toBytes(session));
        if (freshTimestamp != Timestamps.NONE) {
            get.setAttribute(FastPathProtocol.FRESH_TIMESTAMP, Bytes.toBytes(freshTimestamp));
            get.setAttribute(FastPathProtocol.INCARNATION, Bytes.toBytes(incarnation));
        }
        if (idempotencyKey != null) {
            get.setAttribute(FastPathProtocol.IDEMPOTENCY_KEY, idempotencyKey.encode());
            get.setAttribute(FastPathProtocol.OPERATION_TIMEOUT, Bytes.toBytes(operationTimeoutMillis));
        }
        if (mutation != null) {
            get.setAttribute(FastPathProtocol.MUTATION, encodeMutation(mutation));
        }
        if (expectedVersion != ABSENT) {
            get.setAttribute(FastPathProtocol.EXPECTED_VERSION, Bytes.toBytes(expectedVersion));
        }
        if (checkFamily != null) {
            get.setAttribute(FastPathProtocol.CHECK_FAMILY, checkFamily);
            get.setAttribute(FastPathProtocol.CHECK_QUALIFIER, checkQualifier);
            if (checkValue != null) {
                get.setAttribute(FastPathProtocol.CHECK_VALUE, checkValue);
            }
        }
        if (delta != null) {
            get.setAttribute(FastPathProtocol.DELTA, Bytes.toBytes(delta));
        }
        return get;
    }

    /** Whether the Get is a fast-path operation rather than an ordinary read. */
    public static boolean isFastPath(Get get) {
        return get.getAttribute(FastPathProtocol.OPERATION) != null;
    }

    /** Whether the Get is a fast-path operation that writes (put, delete, conditional write, increment, ...). */
    public static boolean isFastPathWrite(Get get) {
        byte[] code = get.getAttribute(FastPathProtocol.OPERATION);
        return code != null && code.length == 1 && Operation.fromCode(code[0]).writes();
    }

    /**
     * The request carried by a fast-path Get.
     *
     * @throws DoNotRetryIOException the Get is not a valid fast-path request; the message says what is wrong
     */
    public static FastPathRequest fromGet(Get get) throws DoNotRetryIOException {
        try {
            byte[] code = get.getAttribute(FastPathProtocol.OPERATION);
            if (code == null || code.length != 1) {
                throw new IllegalArgumentException("attribute " + FastPathProtocol.OPERATION + " must hold one byte,"
                        + " the operation code");
            }
            Builder b = builder(Operation.fromCode(code[0]), get.getRow()).columns(get.getFamilyMap())
                    .session(FastPathProtocol.longAttribute(get, FastPathProtocol.SESSION, Timestamps.NONE));
            long fresh = FastPathProtocol.longAttribute(get, FastPathProtocol.FRESH_TIMESTAMP, Timestamps.NONE);
            if (fresh != Timestamps.NONE) {
                b.freshTimestamp(fresh, FastPathProtocol.longAttribute(get, FastPathProtocol.INCARNATION, 0));
            }
            byte[] key = get.getAttribute(FastPathProtocol.IDEMPOTENCY_KEY);
            if (key != null) {
                b.idempotencyKey(IdempotencyKey.decode(key));
            }
            b.operationTimeoutMillis(FastPathProtocol.longAttribute(get, FastPathProtocol.OPERATION_TIMEOUT, 0));
            byte[] mutation = get.getAttribute(FastPathProtocol.MUTATION);
            if (mutation != null) {
                b.mutation(decodeMutation(mutation));
            }
            b.expectedVersion(FastPathProtocol.longAttribute(get, FastPathProtocol.EXPECTED_VERSION, ABSENT));
            byte[] checkFamily = get.getAttribute(FastPathProtocol.CHECK_FAMILY);
            byte[] checkQualifier = get.getAttribute(FastPathProtocol.CHECK_QUALIFIER);
            if (checkFamily != null || checkQualifier != null) {
                b.check(checkFamily, checkQualifier, get.getAttribute(FastPathProtocol.CHECK_VALUE));
            }
            if (get.getAttribute(FastPathProtocol.DELTA) != null) {
                b.delta(FastPathProtocol.longAttribute(get, FastPathProtocol.DELTA, 0));
            }
            return b.build();
        } catch (IllegalArgumentException | IOException e) {
            throw new DoNotRetryIOException("bad fast-path request for row " + Bytes.toStringBinary(get.getRow())
                    + ": " + e.getMessage(), e);
        }
    }

    public Operation operation() {
        return operation;
    }

    public byte[] row() {
        return row;
    }

    /** Reads: the requested columns (a family mapped to null or an empty set: all of it; empty: the whole row). */
    public NavigableMap<byte[], NavigableSet<byte[]>> columns() {
        return columns;
    }

    /** The user's Put or Delete (writes other than increments); null otherwise. */
    public @Nullable Mutation mutation() {
        return mutation;
    }

    /** The largest version or timestamp the client has read or written; 0 before its first operation. */
    public long session() {
        return session;
    }

    /** A TSO timestamp obtained after a refusal, or {@link Timestamps#NONE}. */
    public long freshTimestamp() {
        return freshTimestamp;
    }

    /** The incarnation of the region whose refusal the fresh timestamp answers; 0 without a fresh timestamp. */
    public long incarnation() {
        return incarnation;
    }

    /** Writes: the operation's idempotency key; null for reads. */
    public @Nullable IdempotencyKey idempotencyKey() {
        return idempotencyKey;
    }

    /** Writes: how long the client may send attempts of this operation, in ms. */
    public long operationTimeoutMillis() {
        return operationTimeoutMillis;
    }

    /** Conditional writes: the row version read before. */
    public long expectedVersion() {
        return expectedVersion;
    }

    public byte @Nullable [] checkFamily() {
        return checkFamily;
    }

    public byte @Nullable [] checkQualifier() {
        return checkQualifier;
    }

    /** Check-and-mutate: the value the checked column must have; null when it must have none. */
    public byte @Nullable [] checkValue() {
        return checkValue;
    }

    /** Increments: the amount to add; 0 for other operations. */
    public long delta() {
        return delta == null ? 0 : delta;
    }

    /** Increments: the counter's family. */
    public byte[] counterFamily() {
        return columns.firstKey();
    }

    /** Increments: the counter's qualifier. */
    public byte[] counterQualifier() {
        return columns.firstEntry().getValue().first();
    }

    private static byte[] encodeMutation(Mutation mutation) throws IOException {
        MutationProto.MutationType type = mutation instanceof Put ? MutationProto.MutationType.PUT
                : MutationProto.MutationType.DELETE;
        return ProtobufUtil.toMutation(type, mutation).toByteArray();
    }

    private static Mutation decodeMutation(byte[] encoded) throws IOException {
        MutationProto proto = MutationProto.parseFrom(encoded);
        switch (proto.getMutateType()) {
            case PUT:
                return ProtobufUtil.toPut(proto);
            case DELETE:
                return ProtobufUtil.toDelete(proto);
            default:
                throw new IllegalArgumentException("a fast-path write takes a Put or a Delete, not a "
                        + proto.getMutateType());
        }
    }

    /** Collects the fields of a {@link FastPathRequest}; {@link #build} checks them. */
    public static final class Builder {

        private final Operation operation;
        private final byte[] row;
        private NavigableMap<byte[], NavigableSet<byte[]>> columns = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        private @Nullable Mutation mutation;
        private long session;
        private long freshTimestamp = Timestamps.NONE;
        private long incarnation;
        private @Nullable IdempotencyKey idempotencyKey;
        private long operationTimeoutMillis;
        private long expectedVersion = ABSENT;
        private byte @Nullable [] checkFamily;
        private byte @Nullable [] checkQualifier;
        private byte @Nullable [] checkValue;
        private @Nullable Long delta;

        private Builder(Operation operation, byte[] row) {
            this.operation = operation;
            this.row = row;
        }

        public Operation operation() {
            return operation;
        }

        /** Reads: the columns to return; increments: the counter (one column). */
        public Builder columns(Map<byte[], NavigableSet<byte[]>> requested) {
            columns = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            for (Map.Entry<byte[], NavigableSet<byte[]>> family : requested.entrySet()) {
                NavigableSet<byte[]> qualifiers = null;
                if (family.getValue() != null && !family.getValue().isEmpty()) {
                    qualifiers = new TreeSet<>(Bytes.BYTES_COMPARATOR);
                    qualifiers.addAll(family.getValue());
                }
                columns.put(family.getKey(), qualifiers);
            }
            return this;
        }

        /** Increments: the counter column. */
        public Builder column(byte[] family, byte[] qualifier) {
            NavigableSet<byte[]> qualifiers = new TreeSet<>(Bytes.BYTES_COMPARATOR);
            qualifiers.add(qualifier);
            columns = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            columns.put(family, qualifiers);
            return this;
        }

        public Builder mutation(Mutation mutation) {
            this.mutation = mutation;
            return this;
        }

        public Builder session(long session) {
            this.session = session;
            return this;
        }

        /** A TSO timestamp obtained after region incarnation {@code incarnation} refused to mint. */
        public Builder freshTimestamp(long freshTimestamp, long incarnation) {
            this.freshTimestamp = freshTimestamp;
            this.incarnation = incarnation;
            return this;
        }

        public Builder idempotencyKey(IdempotencyKey key) {
            this.idempotencyKey = key;
            return this;
        }

        public Builder operationTimeoutMillis(long millis) {
            this.operationTimeoutMillis = millis;
            return this;
        }

        public Builder expectedVersion(long version) {
            this.expectedVersion = version;
            return this;
        }

        /** Check-and-mutate: the checked column and its expected value ({@code null}: the column has none). */
        public Builder check(byte @Nullable [] family, byte @Nullable [] qualifier, byte @Nullable [] expected) {
            this.checkFamily = family;
            this.checkQualifier = qualifier;
            this.checkValue = expected;
            return this;
        }

        public Builder delta(long delta) {
            this.delta = delta;
            return this;
        }

        /** @throws IllegalArgumentException the fields do not make a valid request; the message says why */
        public FastPathRequest build() {
            if (operation == null) {
                throw new IllegalArgumentException("a fast-path request needs an operation");
            }
            if (operation == Operation.SINGLE_REGION_COMMIT) {
                throw new IllegalArgumentException("operation code " + operation.code() + " is not a fast-path"
                        + " operation: single-region commits travel in their own request");
            }
            if (row == null || row.length == 0) {
                throw new IllegalArgumentException("a fast-path request needs a row");
            }
            if (session < 0) {
                throw new IllegalArgumentException("the session timestamp is never negative, was " + session);
            }
            if (freshTimestamp != Timestamps.NONE) {
                if (!Timestamps.isTsoTimestamp(freshTimestamp)) {
                    throw new IllegalArgumentException("the fresh timestamp must be a TSO timestamp (a positive"
                            + " multiple of " + Timestamps.TSO_STEP + "), was " + freshTimestamp);
                }
                if (incarnation == 0) {
                    throw new IllegalArgumentException("a fresh timestamp needs the incarnation of the region that"
                            + " refused (attribute " + FastPathProtocol.INCARNATION + ")");
                }
            }
            for (NavigableSet<byte[]> qualifiers : columns.values()) {
                if (qualifiers != null) {
                    qualifiers.forEach(CellEncoding::checkUserQualifier);
                }
            }
            if (operation.writes()) {
                checkWrite();
            }
            return new FastPathRequest(this);
        }

        private void checkWrite() {
            if (idempotencyKey == null) {
                throw new IllegalArgumentException("a fast-path write needs an idempotency key (attribute "
                        + FastPathProtocol.IDEMPOTENCY_KEY + ")");
            }
            if (operationTimeoutMillis <= 0) {
                throw new IllegalArgumentException("a fast-path write needs the client's operation timeout in ms"
                        + " (attribute " + FastPathProtocol.OPERATION_TIMEOUT + "), was " + operationTimeoutMillis);
            }
            switch (operation) {
                case WRITE:
                    checkMutation();
                    break;
                case CONDITIONAL_WRITE:
                    checkMutation();
                    if (expectedVersion < 0) {
                        throw new IllegalArgumentException("a conditional write needs the version returned by read"
                                + " for update (attribute " + FastPathProtocol.EXPECTED_VERSION + ")");
                    }
                    break;
                case CHECK_AND_MUTATE:
                    checkMutation();
                    if (checkFamily == null || checkQualifier == null) {
                        throw new IllegalArgumentException("check-and-mutate needs the checked column's family and"
                                + " qualifier (attributes " + FastPathProtocol.CHECK_FAMILY + " and "
                                + FastPathProtocol.CHECK_QUALIFIER + ")");
                    }
                    CellEncoding.checkUserQualifier(checkQualifier);
                    break;
                case INCREMENT:
                    if (columns.size() != 1 || columns.firstEntry().getValue() == null
                            || columns.firstEntry().getValue().size() != 1) {
                        throw new IllegalArgumentException("an increment names exactly one column (family and"
                                + " qualifier)");
                    }
                    if (delta == null) {
                        throw new IllegalArgumentException("an increment needs the amount to add (attribute "
                                + FastPathProtocol.DELTA + ")");
                    }
                    break;
                default:
                    throw new IllegalStateException("not a write: " + operation);
            }
        }

        private void checkMutation() {
            if (mutation == null) {
                throw new IllegalArgumentException("a fast-path " + operation + " needs the Put or Delete (attribute "
                        + FastPathProtocol.MUTATION + ")");
            }
            if (!(mutation instanceof Put || mutation instanceof Delete)) {
                throw new IllegalArgumentException("a fast-path write takes a Put or a Delete, not a "
                        + mutation.getClass().getSimpleName());
            }
            if (!Bytes.equals(row, mutation.getRow())) {
                throw new IllegalArgumentException("the mutation's row " + Bytes.toStringBinary(mutation.getRow())
                        + " differs from the request's row " + Bytes.toStringBinary(row));
            }
            if (mutation.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                throw new IllegalArgumentException("fast-path writes take no user timestamp: the version is minted");
            }
            for (List<Cell> cells : mutation.getFamilyCellMap().values()) {
                for (Cell c : cells) {
                    if (c.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                        throw new IllegalArgumentException("fast-path writes take no user timestamp: the version is"
                                + " minted");
                    }
                    if (c.getType() != Cell.Type.DeleteFamily) {
                        CellEncoding.checkUserQualifier(CellUtil.cloneQualifier(c));
                    }
                }
            }
        }
    }
}
