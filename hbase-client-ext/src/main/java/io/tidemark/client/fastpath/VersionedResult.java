package io.tidemark.client.fastpath;

import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * A region server's answer to a fast-path read: its user cells and the row version it carries.
     *
     * @throws IOException the answer is not one the fast path gives (the table's observer has no fast path)
     */
    public static VersionedResult fromAnswer(Result answer) throws IOException {
        List<Cell> user = new ArrayList<>();
        for (Cell c : answer.rawCells()) {
            if (!CellUtil.matchingFamily(c, FastPathProtocol.META_FAMILY)) {
                user.add(c);
            }
        }
        return new VersionedResult(Result.create(user), versionOf(answer));
    }

    /**
     * The version a region server's answer to a fast-path operation carries.
     *
     * @throws IOException the answer is not one the fast path gives (the table's observer has no fast path)
     */
    static long versionOf(Result answer) throws IOException {
        byte[] version = answer.getValue(FastPathProtocol.META_FAMILY, FastPathProtocol.VERSION_QUALIFIER);
        if (version == null) {
            throw new IOException("the region server did not answer as the fast path does: does the table's "
                    + TransactionalTableLayout.TRANSACTIONAL_OBSERVER + " provide " + TableFeature.FAST_PATH
                    + " (./tidemark table create --fast-path, docs/fast-path.md)?");
        }
        return Bytes.toLong(version);
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
