package io.tidemark.visibility;

import org.jspecify.annotations.Nullable;

import java.util.HashMap;
import java.util.Map;

/**
 * The final outcomes a reader has learnt, by writer start timestamp, so that every cell of one writer is judged the
 * same way and the commit table is asked once. A pending outcome is never remembered: the writer may decide any
 * moment, and a later look must see that. Thread-safe; lives as long as its reader (a transaction, a region-server
 * request, a compaction, a fast-path operation).
 */
public final class DecidedWriters {

    private final Map<Long, WriterOutcome> outcomes = new HashMap<>();
    private int committed;

    /** The final outcome remembered for the writer that started at {@code writerStart}, or null. */
    public synchronized @Nullable WriterOutcome get(long writerStart) {
        return outcomes.get(writerStart);
    }

    /** Remembers {@code outcome} if it is final; a pending one is ignored. */
    public synchronized void remember(long writerStart, WriterOutcome outcome) {
        if (outcome.isFinal() && outcomes.put(writerStart, outcome) == null && outcome.isCommitted()) {
            committed++;
        }
    }

    /**
     * How many of the remembered writers committed. Outcomes are only ever added, so a reader that compares the
     * count before and after resolving a read learns whether that read found a writer committed it did not know
     * of before (docs/fast-path.md, "Reading a row").
     */
    public synchronized int committedCount() {
        return committed;
    }
}
