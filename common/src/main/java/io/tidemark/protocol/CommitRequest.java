package io.tidemark.protocol;

/**
 * Asks to commit the transaction that began at {@code startTimestamp} and wrote the cells (or rows) whose 64-bit ids
 * are in {@code writeSet}, in the tables whose ids are in {@code tableIds}. It carries the commit token of the
 * transaction's BEGIN_REPLY: the TSO commits only transactions whose token it issued.
 */
public final class CommitRequest implements Message {

    private final long requestId;
    private final long startTimestamp;
    private final long commitToken;
    private final long[] writeSet;
    private final long[] tableIds;

    /** The arrays are owned by the message from here on: callers must not change them. */
    public CommitRequest(long requestId, long startTimestamp, long commitToken, long[] writeSet, long[] tableIds) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
        this.commitToken = commitToken;
        this.writeSet = writeSet;
        this.tableIds = tableIds;
    }

    public long requestId() {
        return requestId;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** The token of the transaction's BEGIN_REPLY. */
    public long commitToken() {
        return commitToken;
    }

    /** Ids of the written cells (or rows); the array is shared, not copied. */
    public long[] writeSet() {
        return writeSet;
    }

    /** Ids of the written tables; the array is shared, not copied. */
    public long[] tableIds() {
        return tableIds;
    }

    @Override
    public MessageType type() {
        return MessageType.COMMIT;
    }

    @Override
    public String toString() {
        return "Commit{id=" + requestId + ", start=" + startTimestamp + ", writes=" + writeSet.length
                + ", tables=" + tableIds.length + '}';
    }
}
