package io.tidemark.client.admin;

import io.tidemark.client.ClientSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The tables that may hold cells of the transactions recorded in one commit table: what the commit-table sweeper and
 * {@code TransactionManager.outcome} search for a transaction's cells. Both conclude from what they do <em>not</em>
 * find ("no shadow cell, so the marker is not wrong"; "every cell healed, so the record may go"), so a table they
 * overlook can cost committed data; they refuse to run instead while such a table is not fully marked.
 *
 * <p>A table <b>may hold</b> transactional cells of this commit table when it is not in HBase's system namespace,
 * not the commit table itself, not listed in {@value TidemarkConfig#ADMIN_NON_TRANSACTIONAL_TABLES}, not bound to
 * another commit table ({@value TransactionalTableLayout#COMMIT_TABLE_KEY}), and any of these holds:
 * <ul>
 *   <li>a family is marked {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY};</li>
 *   <li>it is bound to this commit table;</li>
 *   <li>a Tidemark observer (the transactional one, or one of the layout of earlier versions) is attached;</li>
 *   <li>a family keeps at least {@value TidemarkConfig#CLIENT_MIN_VERSIONS} versions: the one thing earlier Tidemark
 *       clients required of a table, which ordinary HBase tables (1 to a few versions) do not have.</li>
 * </ul>
 * Such a table must have every family marked and be enabled, or {@link #find} refuses, naming the tables and the fix.
 */
public final class TransactionalTables {

    private final TableName commitTable;
    private final int minVersions;
    private final Set<TableName> nonTransactional;

    public TransactionalTables(ClientSettings settings) {
        this.commitTable = settings.commitTable().tableName();
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
        List<TableName> tables = new ArrayList<>();
        List<String> unmarked = new ArrayList<>();
        List<String> disabled = new ArrayList<>();
        for (TableDescriptor table : admin.listTableDescriptors()) {
            if (!mayHoldTransactionalCells(table)) {
                continue;
            }
            List<String> families = unmarkedFamilies(table);
            TableName name = table.getTableName();
            if (!families.isEmpty()) {
                unmarked.add(name.getNameAsString() + " (families " + String.join(", ", families) + ")");
            } else if (!admin.isTableEnabled(name)) {
                disabled.add(name.getNameAsString());
            } else {
                tables.add(name);
            }
        }
        if (!unmarked.isEmpty() || !disabled.isEmpty()) {
            throw new IOException(refusal(unmarked, disabled));
        }
        return tables;
    }

    /** Whether {@code table} may hold cells of this commit table's transactions (see the class comment). */
    public boolean mayHoldTransactionalCells(TableDescriptor table) {
        TableName name = table.getTableName();
        if (name.isSystemTable() || name.equals(commitTable) || nonTransactional.contains(name)) {
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

    private String refusal(List<String> unmarked, List<String> disabled) {
        StringBuilder m = new StringBuilder("refusing to settle transactions of commit table ")
                .append(commitTable.getNameAsString()).append(": ");
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
        return m.toString();
    }
}
