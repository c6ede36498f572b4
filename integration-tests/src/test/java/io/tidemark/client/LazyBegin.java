package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.EnumSet;

import static io.tidemark.testing.TestCluster.F;

/** What the tests of transactions begun lazily share: their manager, and fast-path tables whose regions mint. */
final class LazyBegin {

    private static final byte[] WARM_UP = Bytes.toBytes("warm-up");

    private LazyBegin() {
    }

    /** A manager that keeps writes until commit, commits in one region when it can and begins lazily; close it. */
    static TransactionManager manager(TestCluster env) {
        return env.managerBuilder().config(env.configWith(TestCluster.KEPT_WRITES
                .andThen(c -> c.set(TidemarkConfig.CLIENT_LAZY_BEGIN, "true")))).build();
    }

    /** A new table with the fast path whose region has learned a TSO timestamp ({@link #warmUp}). */
    static TableName fastPathTable(TestCluster env, TransactionManager lazy, String prefix) throws IOException {
        TableName table = env.createTable(prefix, EnumSet.of(TableFeature.FAST_PATH));
        warmUp(lazy, table);
        return table;
    }

    /**
     * One single-region commit of a transaction that began at the TSO: the region has learned a TSO timestamp, so
     * the commits of the test mint at once, with no refusal and no BEGIN for a fresh timestamp.
     */
    static void warmUp(TransactionManager lazy, TableName table) throws IOException {
        Transaction first = lazy.begin();
        first.startTimestamp(); // begins it at the TSO
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(first, new Put(WARM_UP).addColumn(F, WARM_UP, WARM_UP));
        }
        lazy.commit(first);
    }
}
