package io.tidemark.client;

/** What a {@link TransactionManager}'s metrics counted so far, for tests of where its transactions committed. */
final class ManagerCounts {

    private ManagerCounts() {
    }

    /** BEGIN round trips to the TSO. */
    static long tsoBegins(TransactionManager tm) {
        return tm.metricRegistry().timer(ClientMetrics.TSO_BEGIN_ROUND_TRIP).getCount();
    }

    /** COMMIT round trips to the TSO. */
    static long tsoCommits(TransactionManager tm) {
        return tm.metricRegistry().timer(ClientMetrics.TSO_COMMIT_ROUND_TRIP).getCount();
    }

    /** Transactions committed with one request to their region. */
    static long singleRegionCommits(TransactionManager tm) {
        return tm.metricRegistry().counter(ClientMetrics.SINGLE_REGION_COMMITS).getCount();
    }

    /** Single-region commits the region declined. */
    static long declines(TransactionManager tm) {
        return tm.metricRegistry().counter(ClientMetrics.SINGLE_REGION_DECLINES).getCount();
    }
}
