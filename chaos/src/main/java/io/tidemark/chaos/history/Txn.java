package io.tidemark.chaos.history;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One transaction of the history: a generic transaction, or a fast-path operation (a transaction on one row).
 *
 * @param client the client that ran it (a thread of this JVM or of a child JVM)
 * @param seq its number within the client
 * @param fastPath whether it is a fast-path operation
 * @param operation what it was, for reports: {@code transaction}, or the fast-path operation
 * @param start the start timestamp of a generic transaction, 0 for a fast-path operation
 * @param readBound its reads see exactly the commits with a commit timestamp below this bound: the start timestamp
 *        of a generic transaction; one above the version a fast-path read returned; the version of a fast-path
 *        write that read the row atomically with writing it (check-and-mutate, increment); 0 when unknown (the
 *        reads are then not checked)
 * @param ops the reads, writes and scans in the order the client ran them
 * @param told what the client was told
 * @param unchangedSince for a fast-path conditional write, the version read-for-update returned: the write may only
 *        commit if the row was not written after it; -1 for anything else
 * @param commitAsked whether a generic transaction got as far as asking for its commit (a client killed after that
 *        was killed mid-commit)
 * @param timing when a generic transaction asked the TSO and heard back
 */
public record Txn(String client, long seq, boolean fastPath, String operation, long start, long readBound,
                  List<Op> ops, Told told, long unchangedSince, boolean commitAsked, Timing timing) {

    public Txn {
        ops = List.copyOf(ops);
    }

    /** A transaction whose timing is not known. */
    public Txn(String client, long seq, boolean fastPath, String operation, long start, long readBound, List<Op> ops,
               Told told, long unchangedSince, boolean commitAsked) {
        this(client, seq, fastPath, operation, start, readBound, ops, told, unchangedSince, commitAsked,
                Timing.UNKNOWN);
    }

    /** This transaction with the start (and read bound) {@code start}: for one begun lazily whose start was found. */
    public Txn withStart(long start) {
        return new Txn(client, seq, fastPath, operation, start, start, ops, told, unchangedSince, commitAsked, timing);
    }

    /** {@code client/seq}: how reports name this transaction. */
    public String id() {
        return client + "/" + seq;
    }

    /** The value each written key was left with (the last write of the key; {@code null}: deleted). */
    public Map<Key, String> writes() {
        Map<Key, String> last = new LinkedHashMap<>();
        for (Op op : ops) {
            if (op instanceof Op.Write w) {
                last.put(w.key(), w.value());
            }
        }
        return Collections.unmodifiableMap(last);
    }

    public boolean hasWrites() {
        for (Op op : ops) {
            if (op instanceof Op.Write) {
                return true;
            }
        }
        return false;
    }

    /** The row of a fast-path operation (every key it touches is in it); null for a generic transaction. */
    public String fastPathRow() {
        if (!fastPath) {
            return null;
        }
        for (Op op : ops) {
            if (op instanceof Op.Read r) {
                return r.key().row();
            }
            if (op instanceof Op.Write w) {
                return w.key().row();
            }
        }
        return null;
    }

    /** A short description for reports, e.g. {@code transaction p1/17 (start 40960)}. */
    public String describe() {
        if (fastPath) {
            return "fast-path " + operation + " " + id();
        }
        return operation + " " + id() + " (start " + start + ")";
    }
}
