package io.tidemark.client.admin;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds everything in a table descriptor that keeps the table from being a (fully) transactional table. The one
 * place these rules live: {@code TTable} refuses tables with {@link TableProblem.Severity#BLOCKING} problems and
 * {@link TidemarkAdmin#check} reports them all.
 */
public final class TransactionalTableInspector {

    private final int minVersions;

    /** @param minVersions versions every family must keep ({@value TidemarkConfig#CLIENT_MIN_VERSIONS}) */
    public TransactionalTableInspector(int minVersions) {
        this.minVersions = minVersions;
    }

    public List<TableProblem> problems(TableDescriptor table) {
        String name = table.getTableName().getNameAsString();
        List<TableProblem> problems = new ArrayList<>();
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            String f = family.getNameAsString();
            if (family.getMaxVersions() < minVersions) {
                problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "column family '" + f + "' keeps "
                        + family.getMaxVersions() + " version(s), Tidemark needs at least " + minVersions + " ("
                        + TidemarkConfig.CLIENT_MIN_VERSIONS + "): HBase would drop committed versions a running"
                        + " snapshot still reads. Fix it in the hbase shell: alter '" + name + "', {NAME => '" + f
                        + "', VERSIONS => " + minVersions + "}"));
            }
            if (family.getTimeToLive() != HConstants.FOREVER) {
                problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "column family '" + f
                        + "' has a TTL of " + family.getTimeToLive() + " s: cell versions are transaction"
                        + " timestamps, not wall-clock times, so HBase would expire committed data at random. Fix"
                        + " it in the hbase shell: alter '" + name + "', {NAME => '" + f + "', TTL => 'FOREVER'}"));
            }
            if (!isTransactional(family)) {
                problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "column family '" + f + "' is not"
                        + " marked transactional, so compactions never remove old versions from it. Fix it in the"
                        + " hbase shell: alter '" + name + "', {NAME => '" + f + "', METADATA => {'"
                        + TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY + "' => '"
                        + TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE + "'}}"));
            }
        }
        for (String coprocessor : new String[] {TransactionalTableLayout.SNAPSHOT_OBSERVER,
                TransactionalTableLayout.COMPACTION_OBSERVER}) {
            if (!table.hasCoprocessor(coprocessor)) {
                problems.add(new TableProblem(TableProblem.Severity.ADVISORY, "coprocessor " + coprocessor
                        + " is not attached: " + (coprocessor.equals(TransactionalTableLayout.SNAPSHOT_OBSERVER)
                        ? "snapshots are resolved on the client (every version crosses the network, and Filters"
                        + " are refused)" : "compactions never remove old versions") + ". Fix: "
                        + "TidemarkAdmin.enable, or see docs/coprocessors.md for the hbase shell line"));
            }
        }
        checkFastPathRunsFirst(table, name, problems);
        return problems;
    }

    /**
     * The snapshot observer bypasses the rest of the coprocessor chain for a Get; if the fast-path observer came
     * after it, generic reads would not raise the fast-path read clock and a later fast-path write could be minted
     * below a snapshot that already read the row.
     */
    private static void checkFastPathRunsFirst(TableDescriptor table, String name, List<TableProblem> problems) {
        Integer fastPath = priorityOf(table, TransactionalTableLayout.FAST_PATH_OBSERVER);
        Integer snapshot = priorityOf(table, TransactionalTableLayout.SNAPSHOT_OBSERVER);
        if (fastPath != null && snapshot != null && fastPath >= snapshot) {
            problems.add(new TableProblem(TableProblem.Severity.BLOCKING, "coprocessor "
                    + TransactionalTableLayout.FAST_PATH_OBSERVER + " has priority " + fastPath + ", not below the "
                    + "snapshot observer's " + snapshot + ": generic reads would skip the fast path's read clock."
                    + " Fix: re-attach it with priority " + TransactionalTableLayout.FAST_PATH_PRIORITY
                    + " (docs/fast-path.md)"));
        }
    }

    private static Integer priorityOf(TableDescriptor table, String className) {
        for (CoprocessorDescriptor coprocessor : table.getCoprocessorDescriptors()) {
            if (coprocessor.getClassName().equals(className)) {
                return coprocessor.getPriority();
            }
        }
        return null;
    }

    /** Whether reads can be resolved by the region servers. */
    public static boolean hasServerSideSnapshots(TableDescriptor table) {
        return table.hasCoprocessor(TransactionalTableLayout.SNAPSHOT_OBSERVER);
    }

    /** Whether the family is marked transactional (its compactions collect garbage). */
    public static boolean isTransactional(ColumnFamilyDescriptor family) {
        return TransactionalTableLayout.isTransactionalFamilyValue(family.getValue(
                TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY));
    }
}
