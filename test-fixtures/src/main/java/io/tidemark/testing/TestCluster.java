package io.tidemark.testing;

import io.tidemark.client.PostCommitMode;
import io.tidemark.client.TransactionManager;
import io.tidemark.table.TableFeature;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The test cluster every Tidemark test that needs the whole system uses: a real TSO on an ephemeral port with its own
 * commit and timestamp tables on the {@link SharedMiniCluster}, a {@link TransactionManager} talking to it over a real
 * socket, and tables created by {@link TidemarkAdmin#descriptorFor}. Names are unique per cluster and per table, so
 * tests never share state. Closing stops the manager and the TSO; the tables stay until the JVM ends.
 *
 * <p>Region observers are attached by class name: a test that creates tables with {@link TableFeature}s needs
 * {@code tidemark-coprocessor} on its classpath.
 */
public final class TestCluster implements AutoCloseable {

    /** Namespace of every table a test cluster creates. */
    public static final String NAMESPACE = "tidemarktest";
    /** The two column families of the tables created here. */
    public static final byte[] F = Bytes.toBytes("f");
    public static final byte[] G = Bytes.toBytes("g");

    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    private static final AtomicInteger TABLES = new AtomicInteger();

    /** Unique name of this cluster; its tables' names start with it. */
    public final String name;
    public final CommitMode mode;
    /** Configuration of the TSO and of clients (the TSO address included). */
    public final TidemarkConfig config;
    public final TsoServer tso;
    public final TransactionManager tm;
    public final HBaseCommitTable commitTable;
    public final TidemarkAdmin admin;

    private TestCluster(String name, CommitMode mode, TidemarkConfig config, TsoServer tso) {
        this.name = name;
        this.mode = mode;
        this.config = config;
        this.tso = tso;
        this.tm = managerBuilder().build();
        CommitTableSettings commitTableSettings = new CommitTableSettings(config);
        // The test's own view of the commit table is an operator's: with the TSOs' decision keys, so that what it
        // raises or removes itself (a low watermark, a record) is sealed as the sweeper's would be.
        this.commitTable = new HBaseCommitTable(connection(), commitTableSettings.tableName(),
                commitTableSettings.schema(), new TimestampTableKeys(connection(), config.get(TidemarkConfig.TIMESTAMP_TABLE)));
        this.admin = new TidemarkAdmin(connection(), config);
    }

    /**
     * Sets a configuration back to the client's default of keeping a transaction's writes until commit, which
     * {@link #config} turns off: for managers that commit in one region's request ({@code managerBuilder().config(
     * configWith(TestCluster.KEPT_WRITES))}).
     */
    public static final Consumer<TidemarkConfig> KEPT_WRITES = c -> c.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES,
            Long.toString(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES.defaultValue()));

    /** Starts a TSO in {@code mode} and a manager talking to it. */
    public static TestCluster start(String name, CommitMode mode) throws IOException {
        return start(name, mode, config -> { });
    }

    /** @param settings adjusts the configuration (TSO and client) before the TSO starts */
    public static TestCluster start(String name, CommitMode mode, Consumer<TidemarkConfig> settings)
            throws IOException {
        String unique = unique(name);
        TidemarkConfig config = configNamed(unique, mode);
        settings.accept(config);
        TsoServer tso = startTso(config);
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        return new TestCluster(unique, mode, config, tso);
    }

    /**
     * Configuration of a TSO on an ephemeral port with commit and timestamp tables of its own (named after
     * {@code name} and made unique), for tests that start, stop and restart TSOs themselves.
     */
    public static TidemarkConfig config(String name, CommitMode mode) {
        return configNamed(unique(name), mode);
    }

    private static String unique(String name) {
        return name + "_" + CLUSTERS.incrementAndGet();
    }

    private static TidemarkConfig configNamed(String unique, CommitMode mode) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        EmbeddedCluster.usePatientLease(config);
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        // No HTTP endpoint: these TSOs are watched through their Java API; tests of the endpoint turn it on (port 0).
        config.set(TidemarkConfig.TSO_HTTP_PORT, "-1");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "1000");
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":" + unique + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "2");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":" + unique + "_timestamps");
        config.set(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, "50");
        // These tests look at the store right after commit() (shadow cells written, record removed), so their
        // managers finish the post-commit before commit returns. The default, asynchronous post-commit, is what
        // ChaosScenariosTest, the benchmarks' smoke tests and the YCSB and deployment tests run.
        config.set(TidemarkConfig.CLIENT_POST_COMMIT, PostCommitMode.SYNC.configName());
        // These tests also meet running transactions' tentative writes right after each write (rule (b) of the fast
        // path, invalidations, refusals at put), so their managers send every write at once and commit through the
        // TSO. The default, writes kept until commit and single-region commits, is what SingleRegionCommitTest
        // (with managers of its own, from KEPT_WRITES), ChaosScenariosTest and the benchmarks' smoke tests run.
        config.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES, "0");
        // These tests also write commit records and markers of their own making (a crashed client's record, a dead
        // reader's wrong marker) to stage failures, which the guard refuses unless the TSO sealed them: their commit
        // tables have no guard. The guard's own tests (CertifiedCommitsTest, AuthorizedHBaseTest, LostReplyTest)
        // turn it on, as the default, the embedded cluster, chaos and the deployment test have it.
        config.set(TidemarkConfig.COMMIT_TABLE_GUARD, "false");
        return config;
    }

    /** Starts a TSO with {@code config} on the shared mini-cluster (it creates its tables). */
    public static TsoServer startTso(TidemarkConfig config) throws IOException {
        try (Admin admin = connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, NAMESPACE);
        }
        TsoServer tso = TsoServer.builder().config(config).hbaseConnection(connection()).build();
        tso.start();
        return tso;
    }

    /** The shared mini-cluster's connection (not to be closed). */
    public static Connection connection() {
        return SharedMiniCluster.connection();
    }

    /** A builder of further managers for this cluster's TSO, e.g. with staged failures. */
    public TransactionManager.Builder managerBuilder() {
        return TransactionManager.builder(connection()).config(config);
    }

    /**
     * A copy of this cluster's configuration with {@code settings} applied, e.g. client settings of a further
     * manager ({@code managerBuilder().config(...)}) or of a sweeper; the cluster's own configuration is unchanged.
     */
    public TidemarkConfig configWith(Consumer<TidemarkConfig> settings) {
        TidemarkConfig copy = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        settings.accept(copy);
        return copy;
    }

    /** A table name no other table of this JVM has. */
    public TableName newName(String prefix) {
        return TableName.valueOf(NAMESPACE, name + "_" + prefix + "_" + TABLES.incrementAndGet());
    }

    /** A transactional table with families {@link #F} and {@link #G} and the default features. */
    public TableName createTransactionalTable(String prefix) throws IOException {
        return createTable(prefix, TableFeature.DEFAULT);
    }

    /** A transactional table with families {@link #F} and {@link #G} and the coprocessors of {@code features}. */
    public TableName createTable(String prefix, Set<TableFeature> features) throws IOException {
        return createTable(prefix, features, Map.of());
    }

    /**
     * Like {@link #createTable(String, Set)}, with {@code settings} (configuration keys) added to this cluster's
     * configuration for the descriptor, e.g. a fast-path write check.
     */
    public TableName createTable(String prefix, Set<TableFeature> features, Map<String, String> settings)
            throws IOException {
        return createTable(prefix, features, settings, new byte[0][]);
    }

    /** Like {@link #createTable(String, Set)}, pre-split into regions at {@code splitKeys}. */
    public TableName createTable(String prefix, Set<TableFeature> features, byte[]... splitKeys) throws IOException {
        return createTable(prefix, features, Map.of(), splitKeys);
    }

    private TableName createTable(String prefix, Set<TableFeature> features, Map<String, String> settings,
            byte[][] splitKeys) throws IOException {
        TableName table = newName(prefix);
        TidemarkConfig tableConfig = settings.isEmpty() ? config : configWith(c -> settings.forEach(c.hadoopConfiguration()::set));
        create(new TidemarkAdmin(connection(), tableConfig).descriptorFor(table,
                List.of(Bytes.toString(F), Bytes.toString(G)), features), splitKeys);
        return table;
    }

    /**
     * A plain HBase table with families {@link #F} and {@link #G} keeping {@code versions} versions, not marked
     * transactional and without coprocessors: what a table made outside Tidemark looks like. Pre-split into regions
     * at {@code splitKeys}, if any.
     */
    public TableName createPlainTable(String prefix, int versions, byte[]... splitKeys) throws IOException {
        TableName table = newName(prefix);
        TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table);
        for (byte[] family : new byte[][] {F, G}) {
            descriptor.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(versions)
                    .build());
        }
        create(descriptor.build(), splitKeys);
        return table;
    }

    private static void create(TableDescriptor descriptor, byte[][] splitKeys) throws IOException {
        try (Admin hbase = connection().getAdmin()) {
            if (splitKeys.length == 0) {
                hbase.createTable(descriptor);
            } else {
                hbase.createTable(descriptor, splitKeys);
            }
        }
    }

    /** A fast-path client of {@code table} that begins its generic fallbacks with this cluster's manager. */
    public FastPathTable fastPath(TableName table) {
        return fastPath(table, connection());
    }

    /** Like {@link #fastPath(TableName)}, sending its requests through {@code through} (e.g. with fault injection). */
    public FastPathTable fastPath(TableName table, Connection through) {
        return FastPathTable.builder(through, table).transactionManager(tm).build();
    }

    /** Drops {@code table} if it exists. */
    public static void drop(TableName table) throws IOException {
        try (Admin hbase = connection().getAdmin()) {
            if (hbase.tableExists(table)) {
                if (hbase.isTableEnabled(table)) {
                    hbase.disableTable(table);
                }
                hbase.deleteTable(table);
            }
        }
    }

    @Override
    public void close() {
        tm.close();
        tso.close();
    }
}
