package io.tidemark.table;

import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What region-server support a transactional table gets (docs/coprocessors.md, docs/fast-path.md). The table's one
 * {@link TransactionalTableLayout#TRANSACTIONAL_OBSERVER} provides them all and lists them in its property
 * {@value TransactionalTableLayout#FEATURES_PROPERTY}; tables made by earlier versions attached one observer per
 * feature ({@link #legacyObserver()}), which still works. A table without any still works: the client then resolves
 * snapshots itself.
 */
public enum TableFeature {

    /** Snapshot reads and filters applied inside the region server. */
    SERVER_SIDE_SNAPSHOTS("server-side-snapshots", TransactionalTableLayout.SNAPSHOT_OBSERVER),

    /** Old versions no snapshot can read are dropped when HBase compacts. */
    COMPACTION_GC("compaction-gc", TransactionalTableLayout.COMPACTION_OBSERVER),

    /** Single-row transactions inside the region server. */
    FAST_PATH("fast-path", TransactionalTableLayout.FAST_PATH_OBSERVER);

    /** What {@code ./tidemark table create} and {@code TidemarkAdmin.create} attach unless told otherwise. */
    public static final Set<TableFeature> DEFAULT =
            Collections.unmodifiableSet(EnumSet.of(SERVER_SIDE_SNAPSHOTS, COMPACTION_GC));

    /** Between two features in the property: HBase refuses commas in coprocessor property values. */
    private static final String SEPARATOR = ";";

    private final String propertyName;
    private final String legacyObserver;

    TableFeature(String propertyName, String legacyObserver) {
        this.propertyName = propertyName;
        this.legacyObserver = legacyObserver;
    }

    /** The feature's name in {@value TransactionalTableLayout#FEATURES_PROPERTY}. */
    public String propertyName() {
        return propertyName;
    }

    /** Class name of the observer that provided the feature in the layout of earlier versions. */
    public String legacyObserver() {
        return legacyObserver;
    }

    /**
     * The features {@code table}'s regions provide, as far as this version knows them: those its transactional
     * observer lists (an entry this version does not know, written by a newer one, is left out: its region servers
     * decide), or, in the layout of earlier versions, one for each legacy observer attached; both, should a table
     * have both.
     */
    public static Set<TableFeature> of(TableDescriptor table) {
        Set<TableFeature> features = EnumSet.noneOf(TableFeature.class);
        for (CoprocessorDescriptor coprocessor : table.getCoprocessorDescriptors()) {
            if (coprocessor.getClassName().equals(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)) {
                String listed = coprocessor.getProperties().get(TransactionalTableLayout.FEATURES_PROPERTY);
                for (String entry : listed == null ? new String[0] : listed.split(SEPARATOR)) {
                    TableFeature feature = named(entry);
                    if (feature != null) {
                        features.add(feature);
                    }
                }
            }
        }
        for (TableFeature feature : values()) {
            if (table.hasCoprocessor(feature.legacyObserver)) {
                features.add(feature);
            }
        }
        return features;
    }

    /** The value of {@value TransactionalTableLayout#FEATURES_PROPERTY} listing {@code features}. */
    public static String encode(Set<TableFeature> features) {
        List<String> names = new ArrayList<>();
        for (TableFeature feature : values()) {
            if (features.contains(feature)) {
                names.add(feature.propertyName);
            }
        }
        return String.join(SEPARATOR, names);
    }

    /**
     * The features a value of {@value TransactionalTableLayout#FEATURES_PROPERTY} lists (null or empty: none).
     *
     * @throws IllegalArgumentException naming an entry that is no feature of this version
     */
    public static Set<TableFeature> parse(@Nullable String listed) {
        Set<TableFeature> features = EnumSet.noneOf(TableFeature.class);
        if (listed == null || listed.trim().isEmpty()) {
            return features;
        }
        for (String entry : listed.split(SEPARATOR)) {
            TableFeature feature = named(entry);
            if (feature == null) {
                throw new IllegalArgumentException("'" + entry.trim() + "' in "
                        + TransactionalTableLayout.FEATURES_PROPERTY
                        + " is no table feature of this Tidemark version; the features are "
                        + encode(EnumSet.allOf(TableFeature.class)));
            }
            features.add(feature);
        }
        return features;
    }

    /** The feature whose property name is {@code entry}, or null. */
    private static @Nullable TableFeature named(String entry) {
        String name = entry.trim().toLowerCase(Locale.ROOT);
        for (TableFeature feature : values()) {
            if (feature.propertyName.equals(name)) {
                return feature;
            }
        }
        return null;
    }
}
