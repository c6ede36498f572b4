package io.tidemark.singleregion;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One single-region commit, as the client sends it and the region server runs it (docs/architecture.md,
 * "Single-region commit"). It travels as an HBase Get of its <em>anchor row</em>, the smallest row it writes, whose
 * attribute {@value #ATTRIBUTE} holds everything else; the region answers with a metadata cell holding the commit
 * version ({@link #committedVersion}) or refuses with {@link SingleRegionCommitDeclinedException}.
 *
 * <p>A commit request carries the transaction's snapshot (its start timestamp), the region it expects to find its
 * rows in (the encoded region name the client located them in), the idempotency key and operation timeout of the
 * fast path's operation records (docs/fast-path.md, "Retries"), after a refusal to mint a fresh TSO timestamp and the
 * refusing region's incarnation, and the transaction's writes: one Put per row, its cells at the snapshot's version
 * exactly, as the transaction's tentative writes would be (data cells under user qualifiers, tombstones under
 * {@link CellEncoding#tombstoneQualifier}). A <em>settle</em> request carries only the key (and the snapshot, for
 * messages): it ends the commit request of the same key for good, reporting whether it committed.
 *
 * <p>Both sides go through {@link Builder#build}, so what makes a request valid is written here once: the client
 * fails early with an {@link IllegalArgumentException}, the region server answers bad input with a
 * {@link DoNotRetryIOException}.
 *
 * <p>A <em>write-only</em> request ({@link #writeOnly}) commits a transaction that never began at the TSO: it read
 * nothing, so it has no snapshot, and its cells are at version {@link Timestamps#NONE}; instead of a snapshot it
 * carries the client's session floor, the newest timestamp its client obtained or committed at, above which the
 * region mints. It is written in format {@value #WRITE_ONLY_FORMAT}, which region servers that do not know it refuse.
 * A write-only request may also name rows it <em>read</em> before it would have begun ({@link Builder#readAt}), each
 * a written row with the version the fast path's read-for-update answered: the region commits only if each still has
 * that version (docs/architecture.md, "Read-modify-write without a BEGIN"). It is written in format
 * {@value #READ_CHECKED_FORMAT}.
 *
 * <p>Attribute layout (numbers big-endian): format {@value #FORMAT}, or {@value #WRITE_ONLY_FORMAT} for a write-only
 * request (1 byte), flags (1 byte: bit 0 settle), snapshot, or the floor of a write-only request (8), fresh timestamp
 * (8, 0 for none), incarnation (8, 0 for none), operation timeout in ms (8), idempotency key
 * ({@value IdempotencyKey#ENCODED_LENGTH}), region name length (2) and UTF-8 bytes, mutation count (4), then per
 * mutation its length (4) and an HBase {@code MutationProto}; in format {@value #READ_CHECKED_FORMAT} then the number
 * of rows read (4) and per row read the index of its mutation (4) and the version it was read at (8).
 */
public final class SingleRegionCommitRequest {

    /** The Get attribute that makes a Get a single-region commit. */
    public static final String ATTRIBUTE = "tm.src";
    /** The format of a request with a snapshot. */
    public static final byte FORMAT = 1;
    /** The format of a write-only request: its snapshot field holds the session floor. */
    public static final byte WRITE_ONLY_FORMAT = 2;
    /** The format of a write-only request that names rows it read and the versions it read them at. */
    public static final byte READ_CHECKED_FORMAT = 3;
    /** {@link #versionRead}'s answer for a row the transaction did not read. */
    public static final long NOT_READ = -1;
    /** Most rows one request may write. */
    public static final int MAX_ROWS = 100_000;
    private static final int MAX_REGION_NAME_BYTES = 1024;
    private static final byte SETTLE_FLAG = 1;

    private final long snapshot;
    private final boolean writeOnly;
    private final long floor;
    private final long freshTimestamp;
    private final long incarnation;
    private final long operationTimeoutMillis;
    private final IdempotencyKey idempotencyKey;
    private final String region;
    private final boolean settle;
    private final byte[] anchorRow;
    private final List<Put> rows;
    /** Per row read (all of them written rows), the version it was read at. */
    private final TreeMap<byte[], Long> readVersions;

    private SingleRegionCommitRequest(Builder b, List<Put> rows) {
        this.snapshot = b.writeOnly ? Timestamps.NONE : b.snapshot;
        this.writeOnly = b.writeOnly;
        this.floor = b.writeOnly ? b.snapshot : Timestamps.NONE;
        this.freshTimestamp = b.freshTimestamp;
        this.incarnation = b.incarnation;
        this.operationTimeoutMillis = b.operationTimeoutMillis;
        // build() refused a request without them
        this.idempotencyKey = Objects.requireNonNull(b.idempotencyKey, "idempotency key");
        this.region = b.region;
        this.settle = b.settle;
        this.anchorRow = b.settle ? Objects.requireNonNull(b.anchorRow, "anchor row") : rows.get(0).getRow();
        this.rows = Collections.unmodifiableList(rows);
        this.readVersions = new TreeMap<>(b.readVersions);
    }

    /** A request committing {@code rows} (one Put per row) of the transaction that started at {@code snapshot}. */
    public static Builder commit(long snapshot, List<Put> rows) {
        Builder b = new Builder(snapshot, false);
        b.rows = new ArrayList<>(rows);
        return b;
    }

    /**
     * A request committing {@code rows} (one Put per row, cells at {@link Timestamps#NONE}) of a transaction that read
     * nothing and never began, at a version above {@code floor} (a timestamp, or {@link Timestamps#NONE}).
     */
    public static Builder writeOnly(long floor, List<Put> rows) {
        Builder b = new Builder(floor, false);
        b.writeOnly = true;
        b.rows = new ArrayList<>(rows);
        return b;
    }

    /** A request ending the commit request of {@code key} (whose anchor row is {@code anchorRow}) for good. */
    public static Builder settle(long snapshot, byte[] anchorRow) {
        Builder b = new Builder(snapshot, true);
        b.anchorRow = anchorRow;
        return b;
    }

    /** {@link #settle} for a {@link #writeOnly} commit. */
    public static Builder settleWriteOnly(long floor, byte[] anchorRow) {
        Builder b = settle(floor, anchorRow);
        b.writeOnly = true;
        return b;
    }

    /** A builder holding everything this request holds, to add a fresh timestamp. */
    public Builder toBuilder() {
        Builder b = new Builder(writeOnly ? floor : snapshot, settle);
        b.writeOnly = writeOnly;
        b.freshTimestamp = freshTimestamp;
        b.incarnation = incarnation;
        b.operationTimeoutMillis = operationTimeoutMillis;
        b.idempotencyKey = idempotencyKey;
        b.region = region;
        b.anchorRow = anchorRow;
        b.rows = new ArrayList<>(rows);
        b.readVersions.putAll(readVersions);
        return b;
    }

    /** Whether the Get is a single-region commit (or settle) request rather than a read. */
    public static boolean isSingleRegionCommit(Get get) {
        return get.getAttribute(ATTRIBUTE) != null;
    }

    /** The Get carrying this request, addressed to its anchor row. */
    public Get toGet() {
        Get get = new Get(anchorRow);
        get.setAttribute(ATTRIBUTE, encode());
        return get;
    }

    /**
     * The request a Get carries.
     *
     * @throws DoNotRetryIOException the Get carries no valid request; the message says what is wrong
     */
    public static SingleRegionCommitRequest fromGet(Get get) throws DoNotRetryIOException {
        try {
            SingleRegionCommitRequest request = decode(get.getAttribute(ATTRIBUTE), get.getRow());
            if (!Bytes.equals(request.anchorRow, get.getRow())) {
                throw new IllegalArgumentException("a single-region commit is sent to its smallest row, "
                        + Bytes.toStringBinary(request.anchorRow) + ", not to row "
                        + Bytes.toStringBinary(get.getRow()));
            }
            return request;
        } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException("bad single-region commit request for row "
                    + Bytes.toStringBinary(get.getRow()) + ": " + e.getMessage(), e);
        }
    }

    /**
     * The commit version of a region's answer to a commit request.
     *
     * @throws IOException the answer is not one a single-region commit gives: the table's observer does not run
     *     single-region commits (nothing was written)
     */
    public static long committedVersion(Result answer) throws IOException {
        byte[] version = answer.getValue(FastPathProtocol.META_FAMILY, FastPathProtocol.VERSION_QUALIFIER);
        if (version == null || version.length != Bytes.SIZEOF_LONG) {
            throw new IOException("the region server did not answer as a single-region commit does: its Tidemark"
                    + " observer does not run single-region commits (an older coprocessor, or a table without the"
                    + " fast path)");
        }
        return Bytes.toLong(version);
    }

    /** The metadata cell a region answers a commit with: the commit version. */
    public static Cell answer(byte[] anchorRow, long version) {
        return new KeyValue(anchorRow, FastPathProtocol.META_FAMILY, FastPathProtocol.VERSION_QUALIFIER,
                HConstants.LATEST_TIMESTAMP, Bytes.toBytes(version));
    }

    /**
     * The transaction's start timestamp: the snapshot it read, which every write must not have been passed since;
     * {@link Timestamps#NONE} in a write-only request.
     */
    public long snapshot() {
        return snapshot;
    }

    /** The transaction, for messages: "transaction" and its start timestamp, or "a write-only transaction". */
    public String transaction() {
        return writeOnly ? "a write-only transaction" : "transaction " + snapshot;
    }

    /** Whether the transaction never began (it read nothing and has no snapshot): see {@link #writeOnly}. */
    public boolean isWriteOnly() {
        return writeOnly;
    }

    /**
     * The client's session floor of a write-only request, which the commit version must be above;
     * {@link Timestamps#NONE} for none, and in a request with a snapshot (the snapshot is its floor).
     */
    public long floor() {
        return floor;
    }

    /** A TSO timestamp obtained after a refusal to mint, or {@link Timestamps#NONE}. */
    public long freshTimestamp() {
        return freshTimestamp;
    }

    /** The incarnation of the region whose refusal the fresh timestamp answers; 0 without one. */
    public long incarnation() {
        return incarnation;
    }

    public long operationTimeoutMillis() {
        return operationTimeoutMillis;
    }

    public IdempotencyKey idempotencyKey() {
        return idempotencyKey;
    }

    /** The encoded name of the region the client found every row in; empty in a settle request. */
    public String region() {
        return region;
    }

    /** Whether this request settles the commit request of its key instead of committing. */
    public boolean isSettle() {
        return settle;
    }

    /** The smallest written row, where the request is sent and its operation record kept. */
    public byte[] anchorRow() {
        return anchorRow.clone();
    }

    /** One Put per written row, sorted by row; empty in a settle request. */
    public List<Put> rows() {
        return rows;
    }

    /**
     * The version the transaction read {@code row} at before it would have begun, which the row must still have for
     * the commit; {@link #NOT_READ} for a row it did not read that way.
     */
    public long versionRead(byte[] row) {
        Long version = readVersions.get(row);
        return version == null ? NOT_READ : version;
    }

    /** Whether the request names rows it read ({@link Builder#readAt}). */
    public boolean checksReads() {
        return !readVersions.isEmpty();
    }

    private byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(!writeOnly ? FORMAT : checksReads() ? READ_CHECKED_FORMAT : WRITE_ONLY_FORMAT);
            out.writeByte(settle ? SETTLE_FLAG : 0);
            out.writeLong(writeOnly ? floor : snapshot);
            out.writeLong(freshTimestamp);
            out.writeLong(incarnation);
            out.writeLong(operationTimeoutMillis);
            out.write(idempotencyKey.encode());
            byte[] regionName = region.getBytes(StandardCharsets.UTF_8);
            out.writeShort(regionName.length);
            out.write(regionName);
            out.writeInt(rows.size());
            for (Put p : rows) {
                byte[] proto = ProtobufUtil.toMutation(MutationProto.MutationType.PUT, p).toByteArray();
                out.writeInt(proto.length);
                out.write(proto);
            }
            if (checksReads()) {
                out.writeInt(readVersions.size());
                for (int i = 0; i < rows.size(); i++) {
                    Long version = readVersions.get(rows.get(i).getRow());
                    if (version != null) {
                        out.writeInt(i);
                        out.writeLong(version);
                    }
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("encoding a single-region commit request in memory", e);
        }
    }

    private static SingleRegionCommitRequest decode(byte[] value, byte[] getRow) {
        if (value == null) {
            throw new IllegalArgumentException("attribute " + ATTRIBUTE + " is missing");
        }
        try {
            ByteBuffer in = ByteBuffer.wrap(value);
            byte format = in.get();
            if (format != FORMAT && format != WRITE_ONLY_FORMAT && format != READ_CHECKED_FORMAT) {
                throw new IllegalArgumentException("format " + format + " of attribute " + ATTRIBUTE + "; this side"
                        + " reads formats " + FORMAT + " to " + READ_CHECKED_FORMAT + " (upgrade the older of client"
                        + " and region servers)");
            }
            byte flags = in.get();
            if ((flags & ~SETTLE_FLAG) != 0) {
                throw new IllegalArgumentException("unknown flags " + flags);
            }
            long snapshot = in.getLong();
            Builder b = new Builder(snapshot, (flags & SETTLE_FLAG) != 0);
            b.writeOnly = format != FORMAT;
            long fresh = in.getLong();
            long incarnation = in.getLong();
            if (fresh != Timestamps.NONE || incarnation != 0) {
                b.freshTimestamp(fresh, incarnation);
            }
            b.operationTimeoutMillis(in.getLong());
            byte[] key = new byte[IdempotencyKey.ENCODED_LENGTH];
            in.get(key);
            b.idempotencyKey(IdempotencyKey.decode(key));
            int regionLength = in.getShort() & 0xFFFF;
            if (regionLength > MAX_REGION_NAME_BYTES || regionLength > in.remaining()) {
                throw new IllegalArgumentException("a region name of " + regionLength + " bytes");
            }
            byte[] region = new byte[regionLength];
            in.get(region);
            b.region(new String(region, StandardCharsets.UTF_8));
            int count = in.getInt();
            if (count < 0 || count > MAX_ROWS) {
                throw new IllegalArgumentException("a request writes 0 to " + MAX_ROWS + " rows, not " + count);
            }
            List<Put> rows = new ArrayList<>(Math.min(count, 1024));
            for (int i = 0; i < count; i++) {
                int length = in.getInt();
                if (length < 0 || length > in.remaining()) {
                    throw new IllegalArgumentException("mutation " + i + " claims " + length + " bytes, "
                            + in.remaining() + " are left");
                }
                byte[] proto = new byte[length];
                in.get(proto);
                rows.add(decodePut(proto));
            }
            if (format == READ_CHECKED_FORMAT) {
                decodeReads(in, rows, b);
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " bytes after the last mutation");
            }
            b.rows = rows;
            b.anchorRow = getRow;
            return b.build();
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("attribute " + ATTRIBUTE + " ends early (" + value.length + " bytes)");
        }
    }

    /** The rows read of a format-{@value #READ_CHECKED_FORMAT} request: indexes of its mutations, each once. */
    private static void decodeReads(ByteBuffer in, List<Put> rows, Builder b) {
        int count = in.getInt();
        if (count <= 0 || count > rows.size()) {
            throw new IllegalArgumentException("a request that checks reads names 1 to " + rows.size()
                    + " rows read, not " + count);
        }
        for (int i = 0; i < count; i++) {
            int index = in.getInt();
            if (index < 0 || index >= rows.size()) {
                throw new IllegalArgumentException("row read " + index + " is not one of the " + rows.size()
                        + " written rows");
            }
            byte[] row = rows.get(index).getRow();
            if (b.readVersions.containsKey(row)) {
                throw new IllegalArgumentException("row " + Bytes.toStringBinary(row) + " is named read twice");
            }
            b.readAt(row, in.getLong());
        }
    }

    private static Put decodePut(byte[] proto) {
        try {
            MutationProto parsed = MutationProto.parseFrom(proto);
            if (parsed.getMutateType() != MutationProto.MutationType.PUT) {
                throw new IllegalArgumentException("a single-region commit writes Puts, not a "
                        + parsed.getMutateType());
            }
            return ProtobufUtil.toPut(parsed);
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw (IllegalArgumentException) e;
            }
            throw new IllegalArgumentException("a mutation that is no HBase Put: " + e.getMessage(), e);
        }
    }

    /** Collects the fields of a request; {@link #build} checks them. */
    public static final class Builder {

        /** The snapshot, or the floor of a write-only request. */
        private final long snapshot;
        private final boolean settle;
        private boolean writeOnly;
        private long freshTimestamp = Timestamps.NONE;
        private long incarnation;
        private long operationTimeoutMillis;
        private @Nullable IdempotencyKey idempotencyKey;
        private String region = "";
        private byte @Nullable [] anchorRow;
        private List<Put> rows = new ArrayList<>();
        private final TreeMap<byte[], Long> readVersions = new TreeMap<>(Bytes.BYTES_COMPARATOR);

        private Builder(long snapshot, boolean settle) {
            this.snapshot = snapshot;
            this.settle = settle;
        }

        /** A TSO timestamp obtained after region incarnation {@code incarnation} refused to mint. */
        public Builder freshTimestamp(long freshTimestamp, long incarnation) {
            this.freshTimestamp = freshTimestamp;
            this.incarnation = incarnation;
            return this;
        }

        /**
         * Commits only if {@code row}, one of the written rows, still has {@code version}: the row version a
         * read-for-update answered before the transaction would have begun. Write-only requests only.
         */
        public Builder readAt(byte[] row, long version) {
            readVersions.put(row.clone(), version);
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

        /** The encoded name of the region every row was found in. */
        public Builder region(String encodedRegionName) {
            this.region = encodedRegionName;
            return this;
        }

        /** @throws IllegalArgumentException the fields do not make a valid request; the message says why */
        public SingleRegionCommitRequest build() {
            if (writeOnly && snapshot < 0) {
                throw new IllegalArgumentException("the floor of a write-only commit must be a timestamp or 0, was "
                        + snapshot);
            }
            if (!writeOnly && !Timestamps.isTsoTimestamp(snapshot)) {
                throw new IllegalArgumentException("the snapshot must be a TSO timestamp (a positive multiple of "
                        + Timestamps.TSO_STEP + "), was " + snapshot);
            }
            if (freshTimestamp != Timestamps.NONE || incarnation != 0) {
                if (!Timestamps.isTsoTimestamp(freshTimestamp) || incarnation == 0) {
                    throw new IllegalArgumentException("a fresh timestamp must be a TSO timestamp and come with the"
                            + " incarnation of the region that refused, was " + freshTimestamp + " for incarnation "
                            + incarnation);
                }
            }
            if (idempotencyKey == null) {
                throw new IllegalArgumentException("a single-region commit needs an idempotency key");
            }
            if (operationTimeoutMillis <= 0) {
                throw new IllegalArgumentException("a single-region commit needs the client's operation timeout in"
                        + " ms, was " + operationTimeoutMillis);
            }
            if (region == null || region.length() > MAX_REGION_NAME_BYTES) {
                throw new IllegalArgumentException("the region name must be given, in at most "
                        + MAX_REGION_NAME_BYTES + " bytes");
            }
            if (!readVersions.isEmpty()) {
                checkReads();
            }
            if (settle) {
                if (!rows.isEmpty()) {
                    throw new IllegalArgumentException("a settle request writes nothing");
                }
                if (anchorRow == null || anchorRow.length == 0) {
                    throw new IllegalArgumentException("a settle request needs the anchor row of the commit it ends");
                }
                return new SingleRegionCommitRequest(this, List.of());
            }
            if (region.isEmpty()) {
                throw new IllegalArgumentException("a single-region commit names the region it expects its rows in");
            }
            if (rows.isEmpty() || rows.size() > MAX_ROWS) {
                throw new IllegalArgumentException("a single-region commit writes 1 to " + MAX_ROWS + " rows, not "
                        + rows.size());
            }
            TreeMap<byte[], Put> sorted = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            for (Put p : rows) {
                checkRow(p);
                if (sorted.put(p.getRow(), p) != null) {
                    throw new IllegalArgumentException("row " + Bytes.toStringBinary(p.getRow()) + " appears twice;"
                            + " a request holds one Put per row");
                }
            }
            return new SingleRegionCommitRequest(this, new ArrayList<>(sorted.values()));
        }

        /** Rows read: only in a write-only commit, each a written row, each at a version (0: the row had none). */
        private void checkReads() {
            if (!writeOnly || settle) {
                throw new IllegalArgumentException("only a write-only commit names rows it read before it began");
            }
            TreeMap<byte[], Put> written = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            for (Put p : rows) {
                written.put(p.getRow(), p);
            }
            for (Map.Entry<byte[], Long> read : readVersions.entrySet()) {
                if (!written.containsKey(read.getKey())) {
                    throw new IllegalArgumentException("row " + Bytes.toStringBinary(read.getKey()) + " was read"
                            + " but is not written; a commit checks only rows it writes and holds the locks of");
                }
                if (read.getValue() < 0) {
                    throw new IllegalArgumentException("row " + Bytes.toStringBinary(read.getKey())
                            + " was read at version " + read.getValue() + "; a version is 0 or more");
                }
            }
        }

        private void checkRow(Put put) {
            if (put.getRow() == null || put.getRow().length == 0) {
                throw new IllegalArgumentException("a written row must not be empty");
            }
            if (put.isEmpty()) {
                throw new IllegalArgumentException("row " + Bytes.toStringBinary(put.getRow()) + " writes nothing");
            }
            for (List<Cell> cells : put.getFamilyCellMap().values()) {
                for (Cell c : cells) {
                    checkCell(c);
                }
            }
        }

        /**
         * A tentative write's cell: at the snapshot's version ({@link Timestamps#NONE} in a write-only request), a data
         * cell or a tombstone of a user column.
         */
        private void checkCell(Cell c) {
            long version = writeOnly ? Timestamps.NONE : snapshot;
            if (c.getType() != Cell.Type.Put || c.getTimestamp() != version) {
                throw new IllegalArgumentException("cell " + c + " must be a Put at version " + version
                        + (writeOnly ? " (a write-only commit's)" : " (the snapshot's)"));
            }
            byte[] q = CellUtil.cloneQualifier(c);
            if (CellEncoding.isTombstoneQualifier(q, 0, q.length)) {
                CellEncoding.checkUserQualifier(CellEncoding.userQualifier(q, 0, q.length));
                if (c.getValueLength() != 1
                        || (c.getValueArray()[c.getValueOffset()] != CellEncoding.TOMBSTONE_DELETE[0]
                        && c.getValueArray()[c.getValueOffset()] != CellEncoding.TOMBSTONE_CANCELLED[0])) {
                    throw new IllegalArgumentException("tombstone " + c + " must hold one byte, 1 (deleted) or 0"
                            + " (cancelled)");
                }
            } else {
                CellEncoding.checkUserQualifier(q);
            }
        }
    }
}
