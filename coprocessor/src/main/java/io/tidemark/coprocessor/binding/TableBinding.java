package io.tidemark.coprocessor.binding;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.jspecify.annotations.Nullable;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a transactional table's regions take as given (docs/security.md, "Region servers"): which commit table decides
 * its writers, which timestamp table holds its cluster's commit mode and TSO epoch, the features its observer
 * provides, and the observer's settings. All of it comes from the table descriptor, which only administrators change,
 * and never from a request: a request that names another commit table, commit mode or epoch is refused
 * ({@link RequestClaims}).
 *
 * <p>The commit table is the table's binding ({@link TransactionalTableLayout#COMMIT_TABLE_KEY}, set by
 * {@code TidemarkAdmin}), else the observer's property of the same name, else the default. The timestamp table and
 * the other settings are the observer's properties. A table of the layout of earlier versions, whose observers were
 * told less, also reads the region server's configuration ({@link #ofLegacyLayout}).
 */
public final class TableBinding {

    /** HBase's bound on the clock difference between a region server and the master (it refuses servers beyond it). */
    public static final String HBASE_MAX_CLOCK_SKEW = "hbase.master.maxclockskew";

    private final TableName table;
    private final TableName commitTable;
    private final TableName timestampTable;
    private final Set<TableFeature> features;
    private final TidemarkConfig settings;
    private final boolean hasTransactionalFamily;
    private final @Nullable String problem;

    private TableBinding(TableDescriptor descriptor, Configuration settings, Set<TableFeature> features,
            @Nullable String problem) {
        this.table = descriptor.getTableName();
        this.settings = new TidemarkConfig(settings);
        this.features = Collections.unmodifiableSet(features.isEmpty() ? EnumSet.noneOf(TableFeature.class)
                : EnumSet.copyOf(features));
        this.commitTable = boundCommitTable(descriptor, this.settings);
        this.timestampTable = this.settings.get(TidemarkConfig.TIMESTAMP_TABLE);
        this.hasTransactionalFamily = hasTransactionalFamily(descriptor);
        this.problem = problem;
    }

    /**
     * The binding of a table with {@link TransactionalTableLayout#TRANSACTIONAL_OBSERVER}: its descriptor and that
     * observer's properties, and nothing of the region server's configuration but HBase's own maximum clock skew.
     *
     * @param serverConfiguration the region server's configuration
     */
    public static TableBinding of(TableDescriptor descriptor, Configuration serverConfiguration) {
        Configuration settings = new Configuration(false);
        for (CoprocessorDescriptor coprocessor : descriptor.getCoprocessorDescriptors()) {
            if (coprocessor.getClassName().equals(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)) {
                coprocessor.getProperties().forEach(settings::set);
            }
        }
        copyClockSkew(serverConfiguration, settings);
        Set<TableFeature> features;
        String problem = null;
        try {
            features = TableFeature.parse(settings.get(TransactionalTableLayout.FEATURES_PROPERTY));
        } catch (IllegalArgumentException e) {
            // Failing to start would keep the region from opening, also for plain HBase clients: refuse requests.
            features = EnumSet.noneOf(TableFeature.class);
            problem = e.getMessage() + " (table " + descriptor.getTableName() + "): upgrade the coprocessor jar or"
                    + " fix the property";
        }
        return new TableBinding(descriptor, settings, features, problem);
    }

    /**
     * The binding of a table of the layout of earlier versions (one observer per feature,
     * {@link TransactionalTableLayout#LEGACY_OBSERVERS}): the features of the observers attached, and the region
     * server's configuration overridden by the properties of every one of them, as those observers read it.
     */
    public static TableBinding ofLegacyLayout(TableDescriptor descriptor, Configuration serverConfiguration) {
        Configuration settings = new Configuration(serverConfiguration);
        for (CoprocessorDescriptor coprocessor : descriptor.getCoprocessorDescriptors()) {
            if (TransactionalTableLayout.LEGACY_OBSERVERS.contains(coprocessor.getClassName())) {
                coprocessor.getProperties().forEach(settings::set);
            }
        }
        Set<TableFeature> features = EnumSet.noneOf(TableFeature.class);
        for (TableFeature feature : TableFeature.values()) {
            if (descriptor.hasCoprocessor(feature.legacyObserver())) {
                features.add(feature);
            }
        }
        return new TableBinding(descriptor, settings, features, null);
    }

    private static void copyClockSkew(Configuration from, Configuration to) {
        String skew = from.get(HBASE_MAX_CLOCK_SKEW);
        if (skew != null) {
            to.set(HBASE_MAX_CLOCK_SKEW, skew);
        }
    }

    private static TableName boundCommitTable(TableDescriptor descriptor, TidemarkConfig settings) {
        String bound = descriptor.getValue(TransactionalTableLayout.COMMIT_TABLE_KEY);
        if (bound != null && !bound.trim().isEmpty()) {
            return TableName.valueOf(bound.trim());
        }
        return new CommitTableSettings(settings).tableName();
    }

    private static boolean hasTransactionalFamily(TableDescriptor descriptor) {
        for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
            if (TransactionalTableLayout.isTransactionalFamilyValue(family.getValue(
                    TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY))) {
                return true;
            }
        }
        return false;
    }

    public TableName table() {
        return table;
    }

    /** The commit table that decides this table's writers. */
    public TableName commitTable() {
        return commitTable;
    }

    /** The timestamp table of the commit table's TSOs: the cluster's commit mode and the current epoch. */
    public TableName timestampTable() {
        return timestampTable;
    }

    public boolean provides(TableFeature feature) {
        return features.contains(feature);
    }

    public Set<TableFeature> features() {
        return features;
    }

    /** Whether compaction collects garbage here: the feature is on and at least one family is marked. */
    public boolean collectsGarbage() {
        return features.contains(TableFeature.COMPACTION_GC) && hasTransactionalFamily;
    }

    /** The observer's settings (docs/configuration.md, region-server keys). */
    public TidemarkConfig settings() {
        return settings;
    }

    /** Why the binding cannot serve transactional requests (then every one is refused), or null. */
    public @Nullable String problem() {
        return problem;
    }
}
