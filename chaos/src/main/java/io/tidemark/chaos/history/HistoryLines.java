package io.tidemark.chaos.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The line format of history files: one event per line, tab-separated fields, the first three always the event's
 * letter, the client and the transaction's number within the client. Values are written as they are, {@code -} for
 * absent and {@code *} for "not known yet" (an increment's new value before the answer); the generated values never
 * contain a tab, a comma, {@code =} or a line break.
 *
 * <pre>
 * T client seq G start [asked answered]  a generic transaction began at this start timestamp (BEGIN asked and
 *                                answered at these times, in microseconds since 1970)
 * T client seq G 0              a generic transaction was begun lazily: its start is not known yet
 * B client seq start            ... and it learned its start timestamp (at its commit: the TSO's, or the version it
 *                                committed at in its region without beginning)
 * T client seq F operation      a fast-path operation began
 * R client seq key value        a read and what it returned
 * S client seq from to k=v,...  a scan over rows [from, to) ("*": to the end) and what it returned
 * W client seq key value        a write, recorded before it is sent
 * A client seq version          a fast-path read saw the row at this version
 * C client seq [asked]          the client is about to ask for the commit (at this time)
 * O client seq KIND ts detail [answered]  what the client was told (Told.Kind, timestamp or 0, free text), and when
 * </pre>
 */
public final class HistoryLines {

    static final String ABSENT = "-";
    /** The value of a write the client cannot know before the answer (an increment's new value). */
    public static final String NOT_YET_KNOWN = "*";
    private static final String TO_END = "*";

    private HistoryLines() {
    }

    static String generic(String client, long seq, long start, long asked, long answered) {
        return join("T", client, seq, "G", Long.toString(start), Long.toString(asked), Long.toString(answered));
    }

    static String began(String client, long seq, long start) {
        return join("B", client, seq, Long.toString(start));
    }

    static String fastPath(String client, long seq, String operation) {
        return join("T", client, seq, "F", operation);
    }

    static String read(String client, long seq, Key key, String value) {
        return join("R", client, seq, key.toString(), value(value));
    }

    static String write(String client, long seq, Key key, String value) {
        return join("W", client, seq, key.toString(), value(value));
    }

    static String scan(String client, long seq, String fromRow, String toRow, Map<Key, String> seen) {
        StringBuilder found = new StringBuilder();
        for (Map.Entry<Key, String> e : seen.entrySet()) {
            if (found.length() > 0) {
                found.append(',');
            }
            found.append(e.getKey()).append('=').append(value(e.getValue()));
        }
        return join("S", client, seq, fromRow, toRow == null ? TO_END : toRow, found.toString());
    }

    static String readAt(String client, long seq, long version) {
        return join("A", client, seq, Long.toString(version));
    }

    static String committing(String client, long seq, long asked) {
        return join("C", client, seq, Long.toString(asked));
    }

    /** Whether {@code line} says its client is about to commit (a kill now is a kill mid-commit). */
    public static boolean isCommitting(String line) {
        return line.startsWith("C\t");
    }

    /** Whether {@code line} begins a fast-path operation (rather than a generic transaction, or another event). */
    static boolean beginsFastPath(String line) {
        return line.startsWith("T\t") && field(line, 3).equals("F");
    }

    /** Whether {@code line} begins a generic transaction. */
    static boolean beginsGeneric(String line) {
        return line.startsWith("T\t") && field(line, 3).equals("G");
    }

    /** The timestamp (or version) {@code line} tells its client committed at; -1 when it tells nothing of that. */
    static long committedAt(String line) {
        return line.startsWith("O\t") && field(line, 3).equals(Told.Kind.COMMITTED.name())
                ? Long.parseLong(field(line, 4)) : -1;
    }

    private static String field(String line, int index) {
        String[] f = line.split("\t", index + 2);
        return f.length > index ? f[index] : "";
    }

    /** Longest detail kept of what a client was told: the first line of an exception says what happened. */
    private static final int MAX_DETAIL = 200;

    static String told(String client, long seq, Told told, long answered) {
        String detail = told.detail().lines().findFirst().orElse("").replace('\t', ' ');
        if (detail.length() > MAX_DETAIL) {
            detail = detail.substring(0, MAX_DETAIL) + "...";
        }
        return join("O", client, seq, told.kind().name(), Long.toString(told.timestamp()), detail,
                Long.toString(answered));
    }

    /** Builds transactions from the lines of any number of files, in the order given. */
    public static List<Txn> parse(Iterable<String> lines) {
        Map<String, TxnBuilder> open = new TreeMap<>();
        List<TxnBuilder> order = new ArrayList<>();
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length < 3) {
                throw new IllegalArgumentException("not a history line: " + line);
            }
            String id = f[1] + "/" + f[2];
            TxnBuilder b = open.get(id);
            if (f[0].equals("T")) {
                if (b != null) {
                    throw new IllegalArgumentException("transaction " + id + " began twice");
                }
                b = f[3].equals("G") ? TxnBuilder.generic(f[1], Long.parseLong(f[2]), Long.parseLong(f[4]),
                        micros(f, 5), micros(f, 6)) : TxnBuilder.fastPath(f[1], Long.parseLong(f[2]), f[4]);
                open.put(id, b);
                order.add(b);
                continue;
            }
            if (b == null) {
                throw new IllegalArgumentException("event of transaction " + id + " before it began: " + line);
            }
            switch (f[0]) {
                case "R" -> b.read(Key.parse(f[3]), valueOf(f[4]));
                case "W" -> b.write(Key.parse(f[3]), valueOf(f[4]));
                case "S" -> b.scan(f[3], f[4].equals(TO_END) ? null : f[4], seen(f[5]));
                case "A" -> b.readAt(Long.parseLong(f[3]));
                case "B" -> b.began(Long.parseLong(f[3]));
                case "C" -> b.committing(micros(f, 3));
                case "O" -> b.told(new Told(Told.Kind.valueOf(f[3]), Long.parseLong(f[4]), f.length > 5 ? f[5] : ""),
                        micros(f, 6));
                default -> throw new IllegalArgumentException("unknown history event: " + line);
            }
        }
        List<Txn> txns = new ArrayList<>(order.size());
        for (TxnBuilder b : order) {
            txns.add(b.build());
        }
        return txns;
    }

    /** The time in field {@code i}; 0 when the line has none (a history written before times were recorded). */
    private static long micros(String[] fields, int i) {
        return fields.length > i && !fields[i].isEmpty() ? Long.parseLong(fields[i]) : 0;
    }

    private static Map<Key, String> seen(String field) {
        Map<Key, String> seen = new TreeMap<>();
        if (field.isEmpty()) {
            return seen;
        }
        for (String pair : field.split(",")) {
            int eq = pair.indexOf('=');
            seen.put(Key.parse(pair.substring(0, eq)), valueOf(pair.substring(eq + 1)));
        }
        return seen;
    }

    private static String value(String value) {
        return value == null ? ABSENT : value;
    }

    private static String valueOf(String field) {
        return field.equals(ABSENT) ? null : field;
    }

    private static String join(String event, String client, long seq, String... rest) {
        StringBuilder line = new StringBuilder(event).append('\t').append(client).append('\t').append(seq);
        for (String r : rest) {
            line.append('\t').append(r);
        }
        return line.toString();
    }
}
