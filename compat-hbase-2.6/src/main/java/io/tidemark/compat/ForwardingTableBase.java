package io.tidemark.compat;

import org.apache.hadoop.hbase.client.Table;

import java.util.Map;

/**
 * The part of HBase's {@link Table} interface that exists only in HBase 2.6, for a {@code Table} that forwards its
 * metadata to another: 2.6 added {@link Table#getRequestAttributes()}, whose default implementation throws. The
 * HBase 2.5 build's class of the same name has no such method, because 2.5's {@code Table} has none.
 */
public abstract class ForwardingTableBase implements Table {

    /** The table whose metadata (here: request attributes) this one reports as its own. */
    protected abstract Table forwardedTable();

    @Override
    public Map<String, byte[]> getRequestAttributes() {
        return forwardedTable().getRequestAttributes();
    }
}
