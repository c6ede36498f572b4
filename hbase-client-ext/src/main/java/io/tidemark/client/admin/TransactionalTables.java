package io.tidemark.client.admin;

import io.tidemark.client.ClientSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.security.Authorization;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tables that may hold cells of the transactions recorded in one commit table: what the commit-table sweeper and
 * {@code TransactionManager.outcome} search for a transaction's cells. Both conclude from what they do <em>not</em>
 * find ("no shadow cell, so the marker is not wrong"; "every cell healed, so the record may go"), so a table they
 * overlook can cost committed data; they refuse to run instead while such a table is not fully marked.
 *
 * <p>A table <b>may hold</b> transactional cells of this commit table when it is not in HBase's system namespace,
 * not the commit table itself nor the timestamp table, not listed in
 * {@link TidemarkConfig#ADMIN_NON_TRANSACTIONAL_TABLES}, not bound to another commit table
 * ({@link TransactionalTableLayout#COMMIT_TABLE_KEY}), and any of these holds:
 * <ul>
 *   <li>a family is marked {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY};</li>
 *   <li>it is bound to this commit table;</li>
 *   <li>a Tidemark observer (the transactional one, or one of the layout of earlier versions) is attached;</li>
 *   <li>a family keeps at least {@link TidemarkConfig#CLIENT_MIN_VERSIONS} versions: the one thing earlier Tidemark
 *       clients required of a table, which ordinary HBase tables (1 to a few versions) do not have.</li>
 * </ul>
 * Such a table must have every family marked and be enabled, or {@link #find} refuses, naming the tables and the fix
 * (a table still being created or enabled too: its cells cannot be read yet).
 * So must every table whose descriptor the caller cannot learn (HBase authorization: {@link TableDescriptors}) unless
 * it is listed in {@value TidemarkConfig#ADMIN_NON_TRANSACTIONAL_TABLES}: its cells would be overlooked.
 */
public final class TransactionalTables {

    private final TableName commitTable;
    private final TableName timestampTable;
    private final int minVersions;
    private final Set<TableName> nonTransactional;

    public TransactionalTables(ClientSettings settings) {
        this.commitTable = settings.commitTable().tableName();
        this.timestampTable = settings.timestampTable();
        this.minVersions = settings.minFamilyVersions();
        this.nonTransactional = settings.nonTransactionalTables();
    }

    /**
     * Every table that may hold this commit table's transactional cells.
     *
     * @throws IOException such a table has a family that is not marked transactional, or is disabled (its cells
     *     cannot be read); the message names each one and its fix
     */
    public List<TableName> find(Admin admin) throws IOException {
        Map<TableName, TableDescriptor> readable = new TreeMap<>();
        for (TableDescriptor table : admin.listTableDescriptors()) {
            readable.put(table.getTableName(), table);
        }
        Set<TableName> names = new TreeSet<>(readable.keySet());
        names.addAll(everyTable(admin.getConnection()));
        List<TableName> tables = new ArrayList<>();
        List<String> unmarked = new ArrayList<>();
        List<String> disabled = new ArrayList<>();
        List<String> hidden = new ArrayList<>();
        List<String> enabling = new ArrayList<>();
        for (TableName name : names) {
            if (isNeverTransactional(name)) {
                continue;
            }
            TableDescriptor table = readable.get(name);
            if (table == null) {
                try {
                    // Created since the listing, or not listed for this user: the master answers the first.
                    table = admin.getDescriptor(name);
                } catch (TableNotFoundException dropped) {
                    continue; // dropped since the listing
                } catch (IOException e) {
                    if (Authorization.deniedIn(e) == null) {
                        throw e;
                    }
                    try {
                        table = describedByRegionServer(admin, name);
                    } catch (TableNotFoundException dropped) {
                        continue;
                    }
                    if (table == null) {
                        hidden.add(name.getNameAsString());
                        continue;
                    }
                }
            }
            if (!mayHoldTransactionalCells(table)) {
                continue;
            }
            List<String> families = unmarkedFamilies(table);
            if (!families.isEmpty()) {
                unmarked.add(name.getNameAsString() + " (families " + String.join(", ", families) + ")");
                continue;
            }
            try {
                if (admin.isTableEnabled(name)) {
                    tables.add(name);
                } else if (admin.isTableDisabled(name)) {
                    disabled.add(name.getNameAsString());
                } else {
                    enabling.add(name.getNameAsString());
                }
            } catch (TableNotFoundException dropped) {
                // dropped since the listing: no cells left to search
            }
        }
        if (!unmarked.isEmpty() || !disabled.isEmpty() || !hidden.isEmpty() || !enabling.isEmpty()) {
            throw new IOException(refusal(unmarked, disabled, hidden, enabling));
        }
        return tables;
    }

    /**
     * The name of every table of the cluster, from {@code hbase:meta}, which every user may read: with HBase
     * authorization on, the master lists only the tables the caller has some permission on, and their descriptors
     * only where it has ADMIN or CREATE, so a table the caller was never granted anything on would be overlooked.
     */
    private static List<TableName> everyTable(Connection connection) throws IOException {
        List<TableName> names = new ArrayList<>();
        try (Table meta = connection.getTable(TableName.META_TABLE_NAME);
             ResultScanner states = meta.getScanner(new Scan().addColumn(HConstants.TABLE_FAMILY,
                     HConstants.TABLE_STATE_QUALIFIER))) {
            for (Result state : states) {
                names.add(TableName.valueOf(state.getRow()));
            }
        }
        return names;
    }

    /**
     * The description of a table whose descriptor the master did not show, by its Tidemark observer; null when the
     * caller cannot learn it (no observer, no permission to read the table, or the table is disabled).
     */
    private static @Nullable TableDescriptor describedByRegionServer(Admin admin, TableName name) throws IOException {
        if (!admin.isTableEnabled(name)) {
            return null;
        }
        try (Table table = admin.getConnection().getTable(name)) {
            return TableDescriptors.describedByRegionServer(table);
        } catch (IOException e) {
            if (Authorization.deniedIn(e) != null) {
                return null;
            }
            throw e;
        }
    }

    private boolean isNeverTransactional(TableName name) {
        return name.isSystemTable() || name.equals(commitTable) || name.equals(timestampTable)
                || nonTransactional.contains(name);
    }

    /** Whether {@code table} may hold cells of this commit table's transactions (see the class comment). */
    public boolean mayHoldTransactionalCells(TableDescriptor table) {
        if (isNeverTransactional(table.getTableName())) {
            return false;
        }
        String boundTo = TransactionalTableInspector.boundCommitTable(table);
        if (boundTo != null) {
            return boundTo.equals(commitTable.getNameAsString());
        }
        if (TransactionalTableLayout.hasTidemarkObserver(table)) {
            return true;
        }
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            if (TransactionalTableInspector.isTransactional(family) || family.getMaxVersions() >= minVersions) {
                return true;
            }
        }
        return false;
    }

    private static List<String> unmarkedFamilies(TableDescriptor table) {
        List<String> families = new ArrayList<>();
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            if (!TransactionalTableInspector.isTransactional(family)) {
                families.add(family.getNameAsString());
            }
        }
        return families;
    }

    private String refusal(List<String> unmarked, List<String> disabled, List<String> hidden,
            List<String> enabling) {
        StringBuilder m = new StringBuilder("refusing to settle transactions of commit table ")
                .append(commitTable.getNameAsString()).append(": ");
        if (!hidden.isEmpty()) {
            m.append("HBase authorization keeps this user from learning whether these tables hold transactional")
                    .append(" cells (it may not read their descriptors, which HBase shows only with ADMIN or CREATE,")
                    .append(" and they have no Tidemark observer it may read): ").append(String.join(", ", hidden))
                    .append(". Grant it READ and WRITE on those that are transactional (docs/operations.md, step 4),")
                    .append(" attach Tidemark's observer to transactional tables that have none (./tidemark table")
                    .append(" enable <table>), and list the others in ")
                    .append(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES)
                    .append(unmarked.isEmpty() && disabled.isEmpty() && enabling.isEmpty() ? "" : ". And ");
        }
        if (!unmarked.isEmpty()) {
            m.append("these tables may hold transactional cells but have families not marked ")
                    .append(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY).append(", where a committed writer's")
                    .append(" cells would be overlooked: ").append(String.join("; ", unmarked))
                    .append(". Mark them with ./tidemark table enable <table> (TidemarkAdmin.enable), or, for a")
                    .append(" table that never holds transactional data, list it in ")
                    .append(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES);
        }
        if (!disabled.isEmpty()) {
            m.append(unmarked.isEmpty() ? "" : ". And ").append("these transactional tables are disabled, so their")
                    .append(" cells cannot be checked: ").append(String.join(", ", disabled))
                    .append(". Enable them, or drop them");
        }
        if (!enabling.isEmpty()) {
            m.append(unmarked.isEmpty() && disabled.isEmpty() ? "" : ". And ")
                    .append("these transactional tables are being created or enabled, so their cells cannot be")
                    .append(" checked yet: ").append(String.join(", ", enabling))
                    .append(". Try again once they are enabled");
        }
        return m.toString();
    }
}
