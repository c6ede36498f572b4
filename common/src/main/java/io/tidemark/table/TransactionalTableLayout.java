package io.tidemark.table;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The names by which HBase table descriptors say "this table is transactional" (docs/coprocessors.md). Defined once
 * here so the admin API, the client's table check and the coprocessors cannot disagree.
 */
public final class TransactionalTableLayout {

    /**
     * Column-family metadata key marking a family as transactional (value {@value #TRANSACTIONAL_FAMILY_VALUE}).
     * Compaction garbage collection only touches marked families; other families of the same table keep plain
     * HBase semantics.
     */
    public static final String TRANSACTIONAL_FAMILY_KEY = "tidemark.transactional";
    public static final String TRANSACTIONAL_FAMILY_VALUE = "true";

    /**
     * Table metadata key binding a table to the commit table its transactions are recorded in (the value is that
     * table's name). The commit-table sweeper and {@code TransactionManager.outcome} of another commit table leave a
     * bound table alone, and clients of another commit table refuse it, so several Tidemark installations can share
     * one HBase cluster. A table without the key belongs to whichever installation uses it.
     */
    public static final String COMMIT_TABLE_KEY = TidemarkConfig.COMMIT_TABLE.key();

    /**
     * Table metadata key recording when a table that already held data became transactional: the value is the
     * conversion timestamp T0 in decimal, a TSO timestamp taken by {@code ./tidemark table enable} after it checked
     * that every stored cell is older. A data cell or tombstone below T0 without a shadow cell was written outside
     * transactions before the conversion and counts as committed at its own timestamp (docs/operations.md,
     * "Converting a table that holds data"). Absent (or 0) on tables that were transactional from the start.
     */
    public static final String CONVERTED_AT_KEY = "tidemark.converted-at";

    /**
     * Table metadata key present while a bulk load runs ({@code TidemarkAdmin.beginLoad}, docs/api.md "Bulk loads"):
     * the value is the load's commit timestamp L in decimal, the timestamp of a fence raised after the key was set,
     * or 0 in the moment between setting the key and taking that fence. While it is present the region servers
     * refuse every transactional read and write of the table ({@link TableLoadingException}); loaded cells carry
     * version L and a shadow cell committing them at L. Absent when no load runs.
     */
    public static final String LOADING_AT_KEY = "tidemark.loading-at";

    /**
     * The one region observer of a transactional table ({@code io.tidemark.coprocessor.TransactionalRegionObserver},
     * docs/coprocessors.md): it owns each region's Tidemark state and provides the features its property
     * {@value #FEATURES_PROPERTY} lists ({@link TableFeature}), and the bulk-load guard on every table it is attached
     * to. Everything it needs to know comes from the table descriptor and its coprocessor properties, never from a
     * request.
     */
    public static final String TRANSACTIONAL_OBSERVER = "io.tidemark.coprocessor.TransactionalRegionObserver";

    /**
     * Coprocessor property of {@link #TRANSACTIONAL_OBSERVER}: the features it provides, separated by semicolons
     * ({@link TableFeature#encode}).
     */
    public static final String FEATURES_PROPERTY = "tidemark.features";

    /** Observer of the layout of earlier versions: snapshot reads; still loadable (docs/coprocessors.md). */
    public static final String SNAPSHOT_OBSERVER = "io.tidemark.coprocessor.snapshot.SnapshotObserver";

    /** Observer of the layout of earlier versions: garbage collection at compaction; still loadable. */
    public static final String COMPACTION_OBSERVER = "io.tidemark.coprocessor.compaction.CompactionObserver";

    /** Observer of the layout of earlier versions: the fast path; still loadable. */
    public static final String FAST_PATH_OBSERVER = "io.tidemark.coprocessor.fastpath.FastPathObserver";

    /** Observer of the layout of earlier versions: the bulk-load guard; still loadable. */
    public static final String LOAD_GUARD_OBSERVER = "io.tidemark.coprocessor.load.LoadGuardObserver";

    /**
     * The observers of the layout of earlier versions, in the order in which one of them, when several are attached,
     * runs the whole region side for the table (the others stand by): the first attached.
     */
    public static final List<String> LEGACY_OBSERVERS = Collections.unmodifiableList(Arrays.asList(
            LOAD_GUARD_OBSERVER, FAST_PATH_OBSERVER, SNAPSHOT_OBSERVER, COMPACTION_OBSERVER));

    /**
     * Coprocessor priority: after system coprocessors (such as access control), so those see the request first.
     */
    public static final int COPROCESSOR_PRIORITY = 0x20000000;

    private TransactionalTableLayout() {
    }

    public static boolean isTransactionalFamilyValue(String value) {
        return TRANSACTIONAL_FAMILY_VALUE.equalsIgnoreCase(value);
    }

    /** Whether {@code table} has a Tidemark observer: the transactional one, or one of the earlier layout. */
    public static boolean hasTidemarkObserver(TableDescriptor table) {
        return table.hasCoprocessor(TRANSACTIONAL_OBSERVER) || !legacyObservers(table).isEmpty();
    }

    /**
     * The observers of the layout of earlier versions attached to {@code table}, in {@link #LEGACY_OBSERVERS} order.
     */
    public static List<String> legacyObservers(TableDescriptor table) {
        List<String> attached = new ArrayList<>();
        for (String observer : LEGACY_OBSERVERS) {
            if (table.hasCoprocessor(observer)) {
                attached.add(observer);
            }
        }
        return attached;
    }
}
