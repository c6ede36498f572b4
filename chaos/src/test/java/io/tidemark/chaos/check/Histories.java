package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Timing;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.Txn;
import io.tidemark.timestamp.Timestamps;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Small builders of hand-made histories, and the store a correct Tidemark would leave after them. */
final class Histories {

    static final long T = 4096;

    private final List<Txn> txns = new ArrayList<>();
    private long seq;

    /** Starts a generic transaction at {@code start * T}. */
    Generic generic(String client, long start) {
        return new Generic(client, start * T);
    }

    List<Txn> txns() {
        return txns;
    }

    /**
     * The store after these transactions, as a correct implementation leaves it (post-commit done). A generic
     * transaction told committed at a fast-path version committed in its region: its writes are stored at that
     * version, and its start mark (a shadow cell alone at its start) on its first written key, unless it never began
     * (a write-only commit, whose start is its commit version).
     */
    StoreImage consistentStore() {
        StoreImage store = new StoreImage();
        for (Txn txn : txns) {
            if (txn.told().kind() != Told.Kind.COMMITTED || !txn.hasWrites()) {
                continue;
            }
            long commit = txn.told().timestamp();
            boolean inRegion = !txn.fastPath() && Timestamps.isFastPathVersion(commit);
            long version = txn.fastPath() || inRegion ? commit : txn.start();
            for (Map.Entry<Key, String> w : txn.writes().entrySet()) {
                store.add(w.getKey(), new StoredVersion(version, w.getValue(), w.getValue() == null, commit));
            }
            if (inRegion && txn.start() != commit) { // a write-only commit (start = commit) has no start mark
                Key first = new TreeMap<>(txn.writes()).firstKey();
                store.add(first, new StoredVersion(txn.start(), null, false, commit));
            }
        }
        return store;
    }

    static Key key(String text) {
        return Key.parse(text);
    }

    /** A fast-path blind write committed at {@code version}. */
    void fastPathPut(String client, long version, String key, String value) {
        txns.add(new Txn(client, ++seq, true, "put", 0, version, List.of(new Op.Write(key(key), value)),
                Told.committed(version), -1, false));
    }

    /** A fast-path read that saw the row at {@code version}; {@code "-"} stands for absent. */
    void fastPathGet(String client, long version, Map<String, String> values) {
        List<Op> ops = new ArrayList<>();
        new TreeMap<>(values).forEach((k, v) -> ops.add(new Op.Read(key(k), v.equals("-") ? null : v)));
        txns.add(new Txn(client, ++seq, true, "get", 0, version + 1, ops, Told.of(Told.Kind.NOTHING, ""), -1, false));
    }

    void add(Txn txn) {
        txns.add(txn);
    }

    /**
     * Starts a generic transaction begun lazily, which learns its start at its commit: it only writes, or first reads
     * a row before it begins (a read-modify-write).
     */
    Lazy lazy(String client) {
        return new Lazy(client);
    }

    /** Fluent builder of one generic transaction begun lazily. */
    final class Lazy {
        private final String client;
        private final List<Op> ops = new ArrayList<>();

        private Lazy(String client) {
            this.client = client;
        }

        Lazy read(String key, String value) {
            ops.add(new Op.Read(key(key), value));
            return this;
        }

        Lazy write(String key, String value) {
            ops.add(new Op.Write(key(key), value));
            return this;
        }

        /** Committed write-only in its region at {@code version}, which it learned as its start. */
        Txn startsAndCommitsAt(long version) {
            return add(version, Told.committed(version));
        }

        /** Its client was killed during its commit: it never learned its start, nor its outcome. */
        Txn killedMidCommit() {
            return add(0, Told.of(Told.Kind.UNKNOWN, "killed"));
        }

        private Txn add(long start, Told told) {
            Txn txn = new Txn(client, ++seq, false, "transaction", start, start, ops, told, -1, true);
            txns.add(txn);
            return txn;
        }
    }

    /** Fluent builder of one generic transaction. */
    final class Generic {
        private final String client;
        private final long start;
        private final List<Op> ops = new ArrayList<>();
        private Timing timing = Timing.UNKNOWN;

        private Generic(String client, long start) {
            this.client = client;
            this.start = start;
        }

        Generic read(String key, String value) {
            ops.add(new Op.Read(key(key), value));
            return this;
        }

        Generic write(String key, String value) {
            ops.add(new Op.Write(key(key), value));
            return this;
        }

        Generic scan(String from, String to, Map<String, String> seen) {
            Map<Key, String> keys = new TreeMap<>();
            seen.forEach((k, v) -> keys.put(key(k), v));
            ops.add(new Op.Scan(from, to, keys));
            return this;
        }

        /** When it asked the TSO and heard back (µs): BEGIN, then its commit. */
        Generic timed(long beginAsked, long beginAnswered, long commitAsked, long commitAnswered) {
            timing = new Timing(beginAsked, beginAnswered, commitAsked, commitAnswered);
            return this;
        }

        Txn committedAt(long commit) {
            return told(Told.committed(commit * T));
        }

        Txn told(Told told) {
            Txn txn = new Txn(client, ++seq, false, "transaction", start, start, ops, told, -1, false, timing);
            txns.add(txn);
            return txn;
        }
    }
}
