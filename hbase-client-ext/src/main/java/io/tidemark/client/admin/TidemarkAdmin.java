package io.tidemark.client.admin;

import io.tidemark.table.TableFeature;
import io.tidemark.client.ClientSettings;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.visibility.Conversion;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Creates transactional tables, converts existing ones, and checks them (the Java side of
 * {@code ./tidemark table create|enable|check}). A transactional table keeps every version in every family, has no
 * TTL, marks its families {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY}, is bound to this admin's commit
 * table ({@link TransactionalTableLayout#COMMIT_TABLE_KEY}) and has the coprocessors of its {@link TableFeature}s
 * attached (docs/coprocessors.md). {@link #descriptorFor} is the one place such a descriptor is
 * built: the CLI, the YCSB binding, the benchmarks and the tests all use it.
 */
public final class TidemarkAdmin {

    private static final Logger LOG = LoggerFactory.getLogger(TidemarkAdmin.class);

    /** How HBase's master ends the message of a descriptor its sanity checks refuse. */
    private static final String SANITY_CHECK_HINT = "Set hbase.table.sanity.checks";

    private final Connection connection;
    private final TidemarkConfig config;
    private final ClientSettings settings;

    public TidemarkAdmin(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.config = config;
        this.settings = new ClientSettings(config);
    }

    /**
     * The descriptor of a new transactional table: the given families (each keeping every version, no TTL, marked
     * transactional), the binding to this admin's commit table, and, unless {@code features} is empty, the
     * transactional observer providing them. The observer is told its commit and timestamp tables through its
     * coprocessor properties (from this admin's configuration), so region servers need no {@code hbase-site.xml}
     * change; {@link TidemarkConfig#FASTPATH_WRITE_CHECK}, {@link TidemarkConfig#FASTPATH_READ_WAIT_MS} and
     * {@link TidemarkConfig#FASTPATH_OPERATION_RECORD_TTL_MS}, when set in the configuration, are passed the same way
     * to a table with the fast path.
     */
    public TableDescriptor descriptorFor(TableName table, List<String> families, Set<TableFeature> features) {
        if (families.isEmpty()) {
            throw new IllegalArgumentException("a table needs at least one column family; name one or more");
        }
        TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(table).setValue(
                TransactionalTableLayout.COMMIT_TABLE_KEY, settings.commitTable().tableName().getNameAsString());
        for (String family : families) {
            builder.setColumnFamily(transactional(ColumnFamilyDescriptorBuilder.of(family)));
        }
        if (!features.isEmpty()) {
            attachObserver(builder, TableDescriptorBuilder.newBuilder(table).build(), features);
        }
        return builder.build();
    }

    /** Creates a new transactional table with the given column families and the {@link TableFeature#DEFAULT}s. */
    public void create(TableName table, String... families) throws IOException {
        create(table, TableFeature.DEFAULT, families);
    }

    /** Creates a new transactional table with the given features and column families. */
    public void create(TableName table, Set<TableFeature> features, String... families) throws IOException {
        TableDescriptor descriptor = descriptorFor(table, Arrays.asList(families), features);
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(descriptor);
        } catch (TableExistsException e) {
            // HBase's message is the master's stack trace; say what to do instead.
            throw new TableExistsException("table " + table.getNameAsString() + " already exists; convert it with"
                    + " TidemarkAdmin.enable (tidemark table enable), or see what it lacks with"
                    + " tidemark table check");
        } catch (DoNotRetryIOException e) {
            throw explainRefusal(e);
        }
    }

    /**
     * Converts an existing table in place (an online schema change; HBase reopens its regions): every family becomes
     * transactional, the table is bound to this admin's commit table, and the transactional observer is attached with
     * the {@link TableFeature#DEFAULT}s and every feature the table had (observers of the layout of earlier versions
     * are replaced by it: this is the upgrade of such a table). Refuses a table bound to another commit table: it holds
     * another installation's transactions.
     *
     * <p>A table that is not transactional yet may hold data written outside transactions. The conversion reads
     * every stored cell once, raises a fence on the table through {@code transactions} (its timestamp is the
     * conversion timestamp T0, above every timestamp handed out before), refuses the table if a stored cell is at or
     * above T0 (written with a timestamp from the future, it would sort among transactional versions), and records
     * T0 as {@value TransactionalTableLayout#CONVERTED_AT_KEY} in the same schema change. From then on every cell
     * stored before counts as committed at its own timestamp in every snapshot, and transactions that began before
     * T0 may not write the table (docs/operations.md, "Converting a table that holds data"). Stop writers that do
     * not use Tidemark before converting: a plain write after the conversion would count as committed at once. A
     * table that is already transactional (a family marked, or bound to a commit table) keeps the boundary it has.
     *
     * @param transactions takes the conversion timestamp (a fence); not used for tables already transactional
     * @return the table's conversion: {@link Conversion#NONE} for a table transactional from the start
     * @throws TableHoldsFutureCellsException a stored cell's timestamp is not below the conversion timestamp
     */
    public Conversion enable(TableName table, TransactionManager transactions) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = descriptor(admin, table);
            String ours = settings.commitTable().tableName().getNameAsString();
            String boundTo = TransactionalTableInspector.boundCommitTable(current);
            if (boundTo != null && !boundTo.equals(ours)) {
                throw new IOException("table " + table.getNameAsString() + " belongs to the transactions of commit"
                        + " table '" + boundTo + "' (its '" + TransactionalTableLayout.COMMIT_TABLE_KEY + "'"
                        + " attribute), not to those of '" + ours + "': enabling it here would mix two installations'"
                        + " transactions in one table. Use " + TidemarkConfig.COMMIT_TABLE + "=" + boundTo
                        + ", or another table");
            }
            TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(current)
                    .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, ours);
            Conversion conversion = Conversion.of(current);
            if (!isTransactionalAlready(current, boundTo)) {
                conversion = convert(table, transactions);
                builder.setValue(TransactionalTableLayout.CONVERTED_AT_KEY,
                        Long.toString(conversion.convertedAt()));
            }
            for (ColumnFamilyDescriptor family : current.getColumnFamilies()) {
                builder.modifyColumnFamily(transactional(family));
            }
            attachObserver(builder, current, TableFeature.DEFAULT);
            try {
                admin.modifyTable(builder.build());
            } catch (DoNotRetryIOException e) {
                throw explainRefusal(e);
            }
            return conversion;
        }
    }

    /**
     * Whether the table already holds transactional data, or may: then its cells without shadow cells are tentative
     * writes, never legacy ones.
     */
    private static boolean isTransactionalAlready(TableDescriptor table, @Nullable String boundTo) {
        if (boundTo != null) {
            return true;
        }
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            if (TransactionalTableInspector.isTransactional(family)) {
                return true;
            }
        }
        return false;
    }

    /** Surveys the stored cells, takes T0 from a fence, and checks every stored cell is below it. */
    private Conversion convert(TableName table, TransactionManager transactions) throws IOException {
        StoredCellsSurvey survey = StoredCellsSurvey.of(connection, table);
        if (survey.metadataRow() != null) {
            // Its cells without shadow cells may be transactions' tentative writes: they must never count as committed.
            throw new DoNotRetryIOException("table " + table.getNameAsString() + " cannot be converted: row '"
                    + survey.metadataRow() + "' holds Tidemark metadata (shadow cells or tombstones), so the table"
                    + " held transactions and its cells without shadow cells may be uncommitted writes. Bind it to its"
                    + " commit table instead (alter it with '" + TransactionalTableLayout.COMMIT_TABLE_KEY + "' => '"
                    + settings.commitTable().tableName().getNameAsString() + "'), then enable it; nothing was changed");
        }
        long convertedAt = transactions.fence(table);
        if (survey.maxTimestamp() >= convertedAt) {
            throw new TableHoldsFutureCellsException(table, survey.maxRow(), survey.maxTimestamp(), convertedAt);
        }
        LOG.info("Converting {}: {} stored cells (newest at {}) count as committed; conversion timestamp {}",
                table.getNameAsString(), survey.cells(), survey.maxTimestamp(), convertedAt);
        return Conversion.at(convertedAt);
    }

    /**
     * Begins a bulk load into {@code table}, or resumes the one a crashed loader left (docs/api.md, "Bulk loads"). The
     * table is first marked as loading ({@value TransactionalTableLayout#LOADING_AT_KEY}, with the load guard
     * attached in the same schema change; HBase reopens the regions), so from then on its region servers refuse
     * every transactional read and write of it. Then a fence is raised on the table: its timestamp is the load's
     * commit timestamp L, recorded in the attribute. A table already loading keeps its L.
     *
     * <p>Why in this order: every transaction whose snapshot is above L began after the fence, so after the mark, and
     * cannot have read the table before the loaded cells appear at {@link BulkLoad#finish()}; a transaction below L
     * never sees them; and a transaction begun before the fence that writes the table aborts at commit
     * ({@code FENCED}), so none can overwrite a loaded cell without a conflict. L is a commit timestamp, which no
     * transaction starts at, so no tentative, fast-path or checkpoint version can equal it.
     *
     * @param transactions raises the fence (its TSO hands out L)
     * @throws DoNotRetryIOException the table is not transactional (enable it first)
     */
    public BulkLoad beginLoad(TableName table, TransactionManager transactions) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = descriptor(admin, table);
            refuseUnlessTransactional(current, "bulk loaded");
            TableLoad load = loadOf(current);
            if (!load.isLoading() || !TransactionalTableLayout.hasTidemarkObserver(current)) {
                TableDescriptorBuilder marked = TableDescriptorBuilder.newBuilder(current)
                        .setValue(TransactionalTableLayout.LOADING_AT_KEY, Long.toString(load.commitTimestamp()));
                if (!TransactionalTableLayout.hasTidemarkObserver(current)) {
                    // Every Tidemark observer guards loads; a table without one gets one that provides nothing else.
                    attachObserver(marked, current, EnumSet.noneOf(TableFeature.class));
                }
                modify(admin, marked.build());
            }
            long commitTimestamp = load.commitTimestamp();
            if (commitTimestamp == 0) {
                commitTimestamp = transactions.fence(table);
                modify(admin, TableDescriptorBuilder.newBuilder(descriptor(admin, table))
                        .setValue(TransactionalTableLayout.LOADING_AT_KEY, Long.toString(commitTimestamp)).build());
                LOG.info("Bulk load of {} begun: loaded cells commit at {}", table.getNameAsString(),
                        commitTimestamp);
            } else {
                LOG.info("Bulk load of {} resumed: loaded cells commit at {}, as before", table.getNameAsString(),
                        commitTimestamp);
            }
            return new BulkLoad(this, table, connection.getTable(table), commitTimestamp);
        }
    }

    /**
     * Ends whatever bulk load of {@code table} runs ({@code ./tidemark table finish-load}): for an operator whose
     * loader crashed and will not be run again. Transactions read and write the table again and see what the load
     * wrote before it stopped, all of it committed at its L. Do not call it while a loader still writes: its later
     * writes are refused, and what it meant to load is only partly there.
     *
     * @return the load that was ended, {@link TableLoad#NONE} when none ran
     */
    public TableLoad finishLoad(TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = descriptor(admin, table);
            TableLoad load = loadOf(current);
            if (load.isLoading()) {
                modify(admin, TableDescriptorBuilder.newBuilder(current)
                        .removeValue(TransactionalTableLayout.LOADING_AT_KEY).build());
                LOG.info("Bulk load of {} finished ({})", table.getNameAsString(), load);
            }
            return load;
        }
    }

    /** Ends the load of {@code table} at {@code commitTimestamp}; refuses when the table is not loading at it. */
    void finishLoad(TableName table, long commitTimestamp) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor current = descriptor(admin, table);
            TableLoad load = loadOf(current);
            if (!load.isLoading() || load.commitTimestamp() != commitTimestamp) {
                throw new TableLoadingException("cannot finish the bulk load of " + table.getNameAsString() + " at "
                        + commitTimestamp + ": the table is " + load + " (finished, or begun again, elsewhere);"
                        + " nothing was changed");
            }
            modify(admin, TableDescriptorBuilder.newBuilder(current)
                    .removeValue(TransactionalTableLayout.LOADING_AT_KEY).build());
            LOG.info("Bulk load of {} at {} finished", table.getNameAsString(), commitTimestamp);
        }
    }

    private void refuseUnlessTransactional(TableDescriptor table, String action) throws DoNotRetryIOException {
        List<String> blocking = new ArrayList<>();
        for (TableProblem p : new TransactionalTableInspector(settings.minFamilyVersions(),
                settings.commitTable().tableName()).problems(table)) {
            if (p.isBlocking()) {
                blocking.add(p.description());
            }
        }
        if (!blocking.isEmpty()) {
            throw new DoNotRetryIOException("table " + table.getTableName().getNameAsString() + " cannot be " + action
                    + ": it is not transactional (" + String.join("; ", blocking) + "). Enable it first with"
                    + " TidemarkAdmin.enable (tidemark table enable)");
        }
    }

    private static TableLoad loadOf(TableDescriptor table) throws DoNotRetryIOException {
        try {
            return TableLoad.of(table);
        } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException(e.getMessage(), e);
        }
    }

    private void modify(Admin admin, TableDescriptor descriptor) throws IOException {
        try {
            admin.modifyTable(descriptor);
        } catch (DoNotRetryIOException e) {
            throw explainRefusal(e);
        }
    }

    /**
     * The master refused a descriptor. Its sanity check fails when the region servers cannot load a coprocessor: name
     * where they were told to load it from, in one line (HBase's message carries the master's stack trace).
     */
    private IOException explainRefusal(DoNotRetryIOException e) {
        String reason = firstLine(e.getMessage());
        if (!reason.contains(SANITY_CHECK_HINT)) {
            return e;
        }
        reason = reason.substring(0, reason.indexOf(SANITY_CHECK_HINT)).trim();
        String from = settings.coprocessorJar().isEmpty() ? "from their classpath"
                : "from " + settings.coprocessorJar() + " (" + TidemarkConfig.ADMIN_COPROCESSOR_JAR + ")";
        DoNotRetryIOException explained = new DoNotRetryIOException("HBase refused the table: its region servers"
                + " cannot load the Tidemark coprocessors " + from + ": " + reason + "; install"
                + " tidemark-coprocessor-bundle as docs/coprocessors.md says");
        // Kept for stack traces, not as the cause: a cause's message would repeat the master's trace.
        explained.addSuppressed(e);
        return explained;
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    /** Every problem of the table, in plain words with its fix; empty when the table is fully transactional. */
    public List<TableProblem> check(TableName table) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            return new TransactionalTableInspector(settings.minFamilyVersions(), settings.commitTable().tableName())
                    .problems(descriptor(admin, table));
        }
    }

    private ColumnFamilyDescriptor transactional(ColumnFamilyDescriptor family) {
        return ColumnFamilyDescriptorBuilder.newBuilder(family)
                .setMaxVersions(Math.max(family.getMaxVersions(), settings.minFamilyVersions()))
                .setTimeToLive(HConstants.FOREVER)
                .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                        TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE)
                .build();
    }

    /**
     * Attaches {@link TransactionalTableLayout#TRANSACTIONAL_OBSERVER} providing {@code features} and every feature the
     * table provides already, in place of the observers it has (the transactional one, or those of the layout of
     * earlier versions, which this upgrades). Its properties bind it: the commit table and the timestamp table of this
     * admin's configuration, and the fast-path keys set there; the region servers read nothing else
     * (docs/coprocessors.md).
     */
    private void attachObserver(TableDescriptorBuilder builder, TableDescriptor current, Set<TableFeature> features) {
        Set<TableFeature> provided = EnumSet.noneOf(TableFeature.class);
        provided.addAll(features);
        provided.addAll(TableFeature.of(current));
        for (String legacy : TransactionalTableLayout.legacyObservers(current)) {
            builder.removeCoprocessor(legacy);
        }
        if (current.hasCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)) {
            builder.removeCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER);
        }
        CoprocessorDescriptorBuilder cp = CoprocessorDescriptorBuilder
                .newBuilder(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                .setPriority(TransactionalTableLayout.COPROCESSOR_PRIORITY)
                .setProperty(TidemarkConfig.COMMIT_TABLE.key(), settings.commitTable().tableName().getNameAsString())
                .setProperty(TidemarkConfig.TIMESTAMP_TABLE.key(),
                        config.get(TidemarkConfig.TIMESTAMP_TABLE).getNameAsString());
        if (!provided.isEmpty()) {
            // HBase refuses an empty property value: no property means no feature (a table that only guards loads).
            cp.setProperty(TransactionalTableLayout.FEATURES_PROPERTY, TableFeature.encode(provided));
        }
        if (!settings.coprocessorJar().isEmpty()) {
            cp.setJarPath(settings.coprocessorJar());
        }
        if (provided.contains(TableFeature.FAST_PATH)) {
            // The fast path's settings that the admin's configuration sets, so the table's regions read them.
            for (Setting<?> setting : TidemarkConfig.all()) {
                String value = config.hadoopConfiguration().getTrimmed(setting.key());
                if (setting.section() == Setting.Section.FAST_PATH && value != null) {
                    cp.setProperty(setting.key(), value);
                }
            }
        }
        try {
            builder.setCoprocessor(cp.build());
        } catch (IOException alreadyAttached) {
            // Cannot happen: removed above.
            throw new IllegalStateException(alreadyAttached);
        }
    }

    private static TableDescriptor descriptor(Admin admin, TableName table) throws IOException {
        try {
            return admin.getDescriptor(table);
        } catch (TableNotFoundException e) {
            throw new TableNotFoundException("table " + table.getNameAsString() + " does not exist; create it"
                    + " with TidemarkAdmin.create (./tidemark table create)");
        }
    }
}
