package io.tidemark.client.sweeper;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTableSchema;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One batch of commit-table records old enough to sweep, read in row order from a given row on: committed records
 * older than the committed age, invalidation markers older than the invalidated age. Ages are measured against the
 * records' HBase write times; they only keep the sweeper away from fresh records, no safety argument rests on them.
 */
final class OldRecords {

    /** Start timestamp to commit timestamp. */
    final Map<Long, Long> committed = new TreeMap<>();
    /** Start timestamps of invalidated transactions. */
    final Set<Long> invalidated = new TreeSet<>();
    /** The row to continue from, or null when the commit table was read to its end. */
    final byte @Nullable [] next;

    private OldRecords(byte @Nullable [] next) {
        this.next = next;
    }

    boolean isEmpty() {
        return committed.isEmpty() && invalidated.isEmpty();
    }

    /** The committed records found, as records the sweeper releases with a token it signs. */
    List<CommitRecord> committedRecords() {
        List<CommitRecord> records = new ArrayList<>(committed.size());
        committed.forEach((start, commit) -> records.add(new CommitRecord(start, commit)));
        return records;
    }

    /** Every start timestamp of the batch. */
    Set<Long> starts() {
        Set<Long> starts = new TreeSet<>(committed.keySet());
        starts.addAll(invalidated);
        return starts;
    }

    static OldRecords read(Connection connection, TableName commitTable, byte[] from, SweeperSettings settings)
            throws IOException {
        long now = System.currentTimeMillis();
        Scan scan = new Scan().withStartRow(from).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.COMMIT_QUALIFIER).setCaching(Math.min(settings.batch(), 1000));
        OldRecords found = null;
        TreeMap<Long, Long> committed = new TreeMap<>();
        TreeSet<Long> invalidated = new TreeSet<>();
        try (Table table = connection.getTable(commitTable);
             ResultScanner records = table.getScanner(scan)) {
            for (Result r : records) {
                if (committed.size() + invalidated.size() >= settings.batch()) {
                    found = new OldRecords(r.getRow());
                    break;
                }
                if (!CommitTableSchema.isRecordRow(r.getRow())) {
                    continue;
                }
                Cell cell = r.getColumnLatestCell(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
                long age = now - cell.getTimestamp();
                CommitState state = CommitTableSchema.decode(CellUtil.cloneValue(cell));
                long start = CommitTableSchema.startTimestampOf(r.getRow());
                if (state.isCommitted() && age >= settings.committedAgeMs()) {
                    committed.put(start, state.commitTimestamp());
                } else if (state.isInvalidated() && age >= settings.invalidatedAgeMs()) {
                    invalidated.add(start);
                }
            }
        }
        if (found == null) {
            found = new OldRecords(null);
        }
        found.committed.putAll(committed);
        found.invalidated.addAll(invalidated);
        return found;
    }
}
