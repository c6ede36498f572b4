package io.tidemark.client;

import io.tidemark.client.admin.TableDescriptors;
import io.tidemark.client.admin.TableProblem;
import io.tidemark.client.admin.TransactionalTableInspector;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import io.tidemark.visibility.Conversion;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks, once per table, that the table can hold transactional data (see {@link TransactionalTableInspector}),
 * whether its region servers resolve snapshots, and when it was converted. Remembers the tables that passed, so only
 * the first touch of a table pays for reading its descriptor (from the master, or with HBase authorization on, from
 * the table's observer: {@link TableDescriptors}). A table being bulk loaded is refused and not
 * remembered; a load begun after the table passed is enforced by the region servers' load guard.
 */
final class TransactionalTableCheck {

    /** What a transaction needs to know of a table that passed. */
    static final class CheckedTable {
        final boolean serverSide;
        final boolean fastPath;
        final Conversion conversion;

        CheckedTable(boolean serverSide, boolean fastPath, Conversion conversion) {
            this.serverSide = serverSide;
            this.fastPath = fastPath;
            this.conversion = conversion;
        }
    }

    private final TransactionalTableInspector inspector;
    private final Map<TableName, CheckedTable> passed = new ConcurrentHashMap<>();

    TransactionalTableCheck(int minVersions, TableName commitTable) {
        this.inspector = new TransactionalTableInspector(minVersions, commitTable);
    }

    /** What a table that passed is known to be, or null when it was not checked. */
    @Nullable CheckedTable known(TableName table) {
        return passed.get(table);
    }

    /** Refuses a table that cannot be used transactionally; returns what transactions need to know of it. */
    CheckedTable check(Table table) throws IOException {
        CheckedTable known = passed.get(table.getName());
        if (known != null) {
            return known;
        }
        return check(TableDescriptors.of(table));
    }

    /** {@link #check(Table)} of the table {@code descriptor} describes, read by the caller. */
    CheckedTable check(TableDescriptor descriptor) throws IOException {
        TableName table = descriptor.getTableName();
        CheckedTable known;
        List<TableProblem> blocking = new ArrayList<>();
        for (TableProblem p : inspector.problems(descriptor)) {
            if (p.isBlocking()) {
                blocking.add(p);
            }
        }
        if (!blocking.isEmpty()) {
            throw new TableNotTransactionalException(table, blocking);
        }
        Conversion conversion;
        try {
            if (TableLoad.of(descriptor).isLoading()) {
                throw TableLoadingException.refused(table.getNameAsString(), "a transactional operation");
            }
            conversion = Conversion.of(descriptor);
        } catch (IllegalArgumentException e) {
            throw new TableNotTransactionalException(table, e.getMessage());
        }
        known = new CheckedTable(TransactionalTableInspector.hasServerSideSnapshots(descriptor),
                TableFeature.of(descriptor).contains(TableFeature.FAST_PATH), conversion);
        passed.put(table, known);
        return known;
    }
}
