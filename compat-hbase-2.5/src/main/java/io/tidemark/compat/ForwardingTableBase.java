package io.tidemark.compat;

import org.apache.hadoop.hbase.client.Table;

/**
 * The part of HBase's {@link Table} interface that exists only in HBase 2.6, for a {@code Table} that forwards its
 * metadata to another. HBase 2.5's {@code Table} has nothing of it (no request attributes), so this class, the 2.5
 * build's, adds nothing; the 2.6 build's class of the same name forwards {@code getRequestAttributes()}.
 */
public abstract class ForwardingTableBase implements Table {

    /** The table whose metadata this one reports as its own. */
    protected abstract Table forwardedTable();
}
