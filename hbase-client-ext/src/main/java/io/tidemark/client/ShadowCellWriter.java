package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;
import java.util.List;

/**
 * Writes the shadow cells of a committed transaction into one user table (its post-commit).
 *
 * <p>A fault-injection seam: {@link TransactionManager.Builder#shadowCellWriter} replaces the default multi-put, so
 * tests can stage a client that dies between its commit point and its shadow cells. Applications have no reason to
 * replace it.
 */
public interface ShadowCellWriter {

    /** Writes {@code shadowCells} (puts of shadow cells only) into {@code table}. */
    void write(TableName table, List<Put> shadowCells) throws IOException;
}
