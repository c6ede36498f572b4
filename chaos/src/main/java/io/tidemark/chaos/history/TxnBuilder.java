package io.tidemark.chaos.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Collects the events of one transaction into a {@link Txn}. */
final class TxnBuilder {

    private final String client;
    private final long seq;
    private final boolean fastPath;
    private final String operation;
    private long start;
    private final List<Op> ops = new ArrayList<>();
    private final long beginAsked;
    private final long beginAnswered;
    private long readAt = -1;
    private boolean committing;
    private long commitAsked;
    private long commitAnswered;
    private Told told = Told.NOTHING;

    private TxnBuilder(String client, long seq, boolean fastPath, String operation, long start, long beginAsked,
                       long beginAnswered) {
        this.client = client;
        this.seq = seq;
        this.fastPath = fastPath;
        this.operation = operation;
        this.start = start;
        this.beginAsked = beginAsked;
        this.beginAnswered = beginAnswered;
    }

    /** @param beginAsked when BEGIN was asked for, 0 when unknown; {@code beginAnswered} likewise */
    static TxnBuilder generic(String client, long seq, long start, long beginAsked, long beginAnswered) {
        return new TxnBuilder(client, seq, false, "transaction", start, beginAsked, beginAnswered);
    }

    static TxnBuilder fastPath(String client, long seq, String operation) {
        return new TxnBuilder(client, seq, true, operation, 0, 0, 0);
    }

    void read(Key key, String value) {
        ops.add(new Op.Read(key, value));
    }

    /** A later write of the same key with a known value replaces one recorded as not yet known. */
    void write(Key key, String value) {
        if (value != null && !value.equals(HistoryLines.NOT_YET_KNOWN)) {
            ops.removeIf(op -> op instanceof Op.Write w && w.key().equals(key)
                    && HistoryLines.NOT_YET_KNOWN.equals(w.value()));
        }
        ops.add(new Op.Write(key, value));
    }

    void scan(String fromRow, String toRow, Map<Key, String> seen) {
        ops.add(new Op.Scan(fromRow, toRow, seen));
    }

    /** The start a transaction begun lazily learned (its T line had 0). */
    void began(long learned) {
        if (fastPath || start != 0 || learned <= 0) {
            throw new IllegalArgumentException("transaction " + client + "/" + seq + " cannot learn start " + learned
                    + ": only a generic transaction begun lazily learns a start, once");
        }
        start = learned;
    }

    void readAt(long version) {
        readAt = version;
    }

    /** @param asked when, 0 when unknown */
    void committing(long asked) {
        committing = true;
        commitAsked = asked;
    }

    /** @param answered when, 0 when unknown */
    void told(Told answer, long answered) {
        this.told = answer;
        this.commitAnswered = answered;
    }

    Txn build() {
        return new Txn(client, seq, fastPath, operation, start, readBound(), ops, told,
                fastPath && readAt >= 0 && hasWrite() ? readAt : -1, committing,
                new Timing(beginAsked, beginAnswered, commitAsked, committing ? commitAnswered : 0));
    }

    /**
     * A generic transaction reads below its start. A fast-path operation that reported the version it read at sees
     * everything up to that version; one that read and wrote atomically sees everything below its own version.
     */
    private long readBound() {
        if (!fastPath) {
            return start;
        }
        if (readAt >= 0) {
            return readAt + 1;
        }
        return told.kind() == Told.Kind.COMMITTED ? told.timestamp() : 0;
    }

    private boolean hasWrite() {
        for (Op op : ops) {
            if (op instanceof Op.Write) {
                return true;
            }
        }
        return false;
    }
}
