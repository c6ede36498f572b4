package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;
import java.util.List;

/** Writes the shadow cells of a committed transaction into one user table. */
interface ShadowCellWriter {

    void write(TableName table, List<Put> shadowCells) throws IOException;
}
