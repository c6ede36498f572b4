package io.tidemark.client;

import io.tidemark.client.admin.TableProblem;
import io.tidemark.client.admin.TransactionalTableInspector;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks, once per table, that the table can hold transactional data (see {@link TransactionalTableInspector}) and
 * whether its region servers resolve snapshots. Remembers the tables that passed, so only the first touch of a table
 * pays for reading its descriptor.
 */
final class TransactionalTableCheck {

    private final TransactionalTableInspector inspector;
    /** Tables that passed -> whether the snapshot coprocessor is attached. */
    private final Map<TableName, Boolean> passed = new ConcurrentHashMap<>();

    TransactionalTableCheck(int minVersions, TableName commitTable) {
        this.inspector = new TransactionalTableInspector(minVersions, commitTable);
    }

    /** Refuses a table that cannot be used transactionally; returns whether reads can be resolved server-side. */
    boolean check(Table table) throws IOException {
        Boolean serverSide = passed.get(table.getName());
        if (serverSide != null) {
            return serverSide;
        }
        TableDescriptor descriptor = table.getDescriptor();
        List<TableProblem> blocking = new ArrayList<>();
        for (TableProblem p : inspector.problems(descriptor)) {
            if (p.isBlocking()) {
                blocking.add(p);
            }
        }
        if (!blocking.isEmpty()) {
            throw new TableNotTransactionalException(table.getName(), blocking);
        }
        serverSide = TransactionalTableInspector.hasServerSideSnapshots(descriptor);
        passed.put(table.getName(), serverSide);
        return serverSide;
    }
}
