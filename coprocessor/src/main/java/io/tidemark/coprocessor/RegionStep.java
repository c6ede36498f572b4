package io.tidemark.coprocessor;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;

import java.io.IOException;
import java.util.List;

/**
 * One job of a region's Tidemark side (the load guard, the fast path, server-side snapshot reads, compaction GC), run
 * by the {@link RegionPipeline} at each HBase hook in a fixed order. A step does nothing at the hooks it does not
 * override.
 */
public interface RegionStep {

    /**
     * Before HBase reads a Get.
     *
     * @return true when this step answered the Get into {@code result}: no later step runs, HBase skips its own read
     *     and every post-read hook
     */
    default boolean preGet(Get get, List<Cell> result) throws IOException {
        return false;
    }

    /** After HBase read a Get no step answered. */
    default void postGet(Get get, List<Cell> result) throws IOException {
    }

    /** Before a scanner opens; the step may rewrite the Scan. */
    default void preScannerOpen(Scan scan) throws IOException {
    }

    /** After a scanner opened: the step may wrap it. */
    default RegionScanner postScannerOpen(Scan scan, RegionScanner scanner) throws IOException {
        return scanner;
    }

    /** Before a batch of mutations is applied, with its row locks held; the step may refuse mutations. */
    default void preBatchMutate(MiniBatchOperationInProgress<Mutation> batch) throws IOException {
    }

    /** Before a compaction of {@code store}: the step may wrap its scanner. */
    default InternalScanner preCompact(Store store, InternalScanner scanner, ScanType scanType) throws IOException {
        return scanner;
    }
}
