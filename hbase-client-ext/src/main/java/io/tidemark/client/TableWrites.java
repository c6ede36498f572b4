package io.tidemark.client;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.List;

/**
 * Writes a list of mutations that often holds just one. HBase's {@link Table#put(List)} and
 * {@link Table#delete(List)} send even a single mutation through the batch machinery (a hand-off to a thread of the
 * table's pool, then a multi request), where {@link Table#put(Put)} sends one mutate request from the calling
 * thread: 0.2 to 0.3 ms less per write, measured on the development machine (docs/benchmarks-history.md,
 * "Levers, ranked by these measurements", lever 3). A single write's failure is then HBase's own exception for that
 * write, not a {@code RetriesExhaustedWithDetailsException} around it; {@link TransactionAborts} finds refusals in
 * either.
 */
final class TableWrites {

    private TableWrites() {
    }

    static void put(Table table, List<Put> puts) throws IOException {
        if (puts.size() == 1) {
            table.put(puts.get(0));
        } else {
            table.put(puts);
        }
    }

    /** As {@link Table#delete(List)}, which may remove the deletes that succeeded from {@code deletes}. */
    static void delete(Table table, List<Delete> deletes) throws IOException {
        if (deletes.size() == 1) {
            table.delete(deletes.get(0));
        } else {
            table.delete(deletes);
        }
    }
}
