package io.tidemark.visibility;

import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;

import java.io.IOException;

/**
 * Where the read rule reads and heals stored versions: one row at a time, as it is stored now. The client reads
 * through an HBase {@code Table} ({@link TableVersionStore}); a region server through its {@code Region} (module
 * coprocessor), so that a coprocessor never makes an RPC to its own region.
 */
public interface VersionStore {

    /** Reads one row as HBase's {@code Table.get} does. */
    Result get(Get get) throws IOException;

    /** Writes cells of one row as HBase's {@code Table.put} does. */
    void put(Put put) throws IOException;

    /** When the table became transactional, if it held data before ({@link Conversion#NONE} otherwise). */
    Conversion conversion();
}
