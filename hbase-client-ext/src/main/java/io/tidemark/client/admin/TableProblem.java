package io.tidemark.client.admin;

/** One way a table falls short of what Tidemark needs, in plain words, with the fix. */
public final class TableProblem {

    /** How much a problem matters. */
    public enum Severity {
        /**
         * Transactions on the table would return wrong results or lose committed data: TTable refuses it, and the
         * commit-table sweeper refuses to run while such a table may hold transactional cells.
         */
        BLOCKING,
        /** Transactions are correct but the table misses a feature (server-side reads, garbage collection). */
        ADVISORY
    }

    private final Severity severity;
    private final String description;
    private final boolean fixedByEnable;

    TableProblem(Severity severity, String description, boolean fixedByEnable) {
        this.severity = severity;
        this.description = description;
        this.fixedByEnable = fixedByEnable;
    }

    public Severity severity() {
        return severity;
    }

    public boolean isBlocking() {
        return severity == Severity.BLOCKING;
    }

    /** Whether {@link TidemarkAdmin#enable} ({@code ./tidemark table enable}) fixes it. */
    public boolean isFixedByEnable() {
        return fixedByEnable;
    }

    /** What is wrong and how to fix it. */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return severity + ": " + description;
    }
}
