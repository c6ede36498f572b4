package io.tidemark.client.admin;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Finds everything in a table descriptor that keeps the table from being a (fully) transactional table. The one
 * place these rules live: {@code TTable} refuses tables with {@link TableProblem.Severity#BLOCKING} problems and
 * {@link TidemarkAdmin#check} reports them all.
 */
public final class TransactionalTableInspector {

    private final int minVersions;
    private final TableName commitTable;

    /**
     * @param minVersions versions every family must keep ({@link TidemarkConfig#CLIENT_MIN_VERSIONS})
     * @param commitTable the commit table of the transactions that will use the table
     *     ({@link TidemarkConfig#COMMIT_TABLE})
     */
    public TransactionalTableInspector(int minVersions, TableName commitTable) {
        this.minVersions = minVersions;
        this.commitTable = commitTable;
    }

    public List<TableProblem> problems(TableDescriptor table) {
        String name = table.getTableName().getNameAsString();
        List<TableProblem> problems = new ArrayList<>();
        checkCommitTableBinding(table, name, problems);
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            String f = family.getNameAsString();
            if (family.getMaxVersions() < minVersions) {
                problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "column family '" + f + "' keeps "
                        + family.getMaxVersions() + " version(s), Tidemark needs at least " + minVersions + " ("
                        + TidemarkConfig.CLIENT_MIN_VERSIONS + "): HBase would drop committed versions a running"
                        + " snapshot still reads. Fix it in the hbase shell: alter '" + name + "', {NAME => '" + f
                        + "', VERSIONS => " + minVersions + "}", true));
            }
            if (family.getTimeToLive() != HConstants.FOREVER) {
                problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "column family '" + f
                        + "' has a TTL of " + family.getTimeToLive() + " s: cell versions are transaction"
                        + " timestamps, not wall-clock times, so HBase would expire committed data at random. Fix"
                        + " it in the hbase shell: alter '" + name + "', {NAME => '" + f + "', TTL => 'FOREVER'}",
                        true));
            }
            if (!isTransactional(family)) {
                problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "column family '" + f + "' is not"
                        + " marked transactional: the commit-table sweeper only finds transactional cells in marked"
                        + " families (it would delete the commit record of a committed writer without writing its"
                        + " shadow cells here, so it refuses to run while such a table holds transactional data), and"
                        + " compactions never remove old versions from it. Fix it in the hbase shell: alter '" + name
                        + "', {NAME => '" + f + "', METADATA => {'" + TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY
                        + "' => '" + TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE + "'}}", true));
            }
        }
        Set<TableFeature> features = TableFeature.of(table);
        if (!features.contains(TableFeature.SERVER_SIDE_SNAPSHOTS)) {
            problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "no server-side snapshot reads ("
                    + TransactionalTableLayout.TRANSACTIONAL_OBSERVER + " with " + TableFeature.SERVER_SIDE_SNAPSHOTS
                    + "): snapshots are resolved on the client (every version crosses the network, and Filters are"
                    + " refused). Fix: ./tidemark table enable " + name + " (TidemarkAdmin.enable)", true));
        }
        if (!features.contains(TableFeature.COMPACTION_GC)) {
            problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "no garbage collection at compaction ("
                    + TransactionalTableLayout.TRANSACTIONAL_OBSERVER + " with " + TableFeature.COMPACTION_GC
                    + "): compactions never remove old versions. Fix: ./tidemark table enable " + name
                    + " (TidemarkAdmin.enable)", true));
        }
        List<String> legacy = TransactionalTableLayout.legacyObservers(table);
        if (!legacy.isEmpty()) {
            problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "table '" + name + "' has the coprocessors of"
                    + " an earlier Tidemark version (" + String.join(", ", legacy)
                    + "); they still work. Fix: ./tidemark"
                    + " table enable " + name + " replaces them by " + TransactionalTableLayout.TRANSACTIONAL_OBSERVER
                    + ", keeping the table's features (docs/coprocessors.md)", true));
        }
        checkLoad(table, name, problems);
        return problems;
    }

    /**
     * A bulk load in progress is reported, so that {@code tidemark table check} explains why transactions are refused
     * (the client refuses them itself, with {@code TableLoadingException}); a value that is no timestamp is blocking:
     * the region servers' load guard refuses every transaction and every loader until it is removed.
     */
    private static void checkLoad(TableDescriptor table, String name, List<TableProblem> problems) {
        TableLoad load;
        try {
            load = TableLoad.of(table);
        } catch (IllegalArgumentException e) {
            problems.add(new TableProblem(TableProblem.Severity.BLOCKING, e.getMessage() + ". Fix it in the hbase"
                    + " shell, which ends the load (what it wrote becomes visible): alter '" + name + "', METHOD =>"
                    + " 'table_att_unset', NAME => '" + TransactionalTableLayout.LOADING_AT_KEY + "'", false));
            return;
        }
        if (load.isLoading()) {
            problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "table '" + name + "' is being bulk loaded ("
                    + load + ", '" + TransactionalTableLayout.LOADING_AT_KEY + "'): transactions may neither read nor"
                    + " write it until the load finishes. If its loader crashed, run the load again (TidemarkAdmin"
                    + ".beginLoad resumes it) or end it with ./tidemark table finish-load " + name, false));
        }
    }

    /**
     * A table bound to another commit table holds the transactions of another Tidemark installation: its cells'
     * writers are recorded there, so this client would misjudge every one of them, and this installation's sweeper
     * would never look at the table.
     */
    private void checkCommitTableBinding(TableDescriptor table, String name, List<TableProblem> problems) {
        String boundTo = boundCommitTable(table);
        if (boundTo != null && !boundTo.equals(commitTable.getNameAsString())) {
            problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "table '" + name + "' belongs to the"
                    + " transactions of commit table '" + boundTo + "' (its '"
                    + TransactionalTableLayout.COMMIT_TABLE_KEY + "' attribute), not to those of '"
                    + commitTable.getNameAsString() + "', which this client uses (" + TidemarkConfig.COMMIT_TABLE
                    + "). Fix: set " + TidemarkConfig.COMMIT_TABLE + " to '" + boundTo
                    + "' (and use that installation's TSO), or use another table", false));
        }
    }

    /**
     * The name of the commit table the table is bound to ({@link TransactionalTableLayout#COMMIT_TABLE_KEY}),
     * normalised as HBase prints table names, or null when it is unbound. A value that is no table name is returned
     * as it is, so it never equals a real commit table.
     */
    public static @Nullable String boundCommitTable(TableDescriptor table) {
        String value = table.getValue(TransactionalTableLayout.COMMIT_TABLE_KEY);
        if (value == null || value.trim().isEmpty()) {
            return null;
        }
        try {
            return TableName.valueOf(value.trim()).getNameAsString();
        } catch (IllegalArgumentException notATableName) {
            return value;
        }
    }

    /** Whether reads can be resolved by the region servers. */
    public static boolean hasServerSideSnapshots(TableDescriptor table) {
        return TableFeature.of(table).contains(TableFeature.SERVER_SIDE_SNAPSHOTS);
    }

    /** Whether the family is marked transactional (its compactions collect garbage). */
    public static boolean isTransactional(ColumnFamilyDescriptor family) {
        return TransactionalTableLayout.isTransactionalFamilyValue(family.getValue(
                TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY));
    }
}
