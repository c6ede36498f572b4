package io.tidemark.client.fastpath;

import org.apache.hadoop.hbase.client.Result;

/**
 * A row as the latest committed transaction left it, and that row's version (the commit timestamp of its newest write).
 */
public final class VersionedResult {

    private final Result result;
    private final long version;

    VersionedResult(Result result, long version) {
        this.result = result;
        this.version = version;
    }

    /** The committed user cells; empty when the row has none. */
    public Result result() {
        return result;
    }

    /** The row's version: pass it to a conditional write to commit only if the row did not change since. */
    public long version() {
        return version;
    }

    @Override
    public String toString() {
        return "VersionedResult{version=" + version + ", " + result + '}';
    }
}
