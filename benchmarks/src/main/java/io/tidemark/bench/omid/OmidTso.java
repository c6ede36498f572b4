package io.tidemark.bench.omid;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.name.Names;
import io.tidemark.client.PostCommitMode;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.omid.committable.hbase.HBaseCommitTableConfig;
import org.apache.omid.committable.hbase.HBaseCommitTableStorageModule;
import org.apache.omid.timestamp.storage.HBaseTimestampStorage;
import org.apache.omid.timestamp.storage.HBaseTimestampStorageConfig;
import org.apache.omid.timestamp.storage.TimestampStorage;
import org.apache.omid.tools.hbase.OmidTableManager;
import org.apache.omid.transaction.HBaseOmidClientConfiguration;
import org.apache.omid.tso.LeaseManagement;
import org.apache.omid.tso.TSOChannelHandler;
import org.apache.omid.tso.TSOServer;
import org.apache.omid.tso.TSOServerConfig;
import org.apache.omid.tso.TSOStateManager;
import org.apache.omid.tso.VoidLeaseManager;
import org.apache.omid.tso.client.OmidClientConfiguration;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Apache Omid's TSO in this JVM, in its low-latency mode, for the benchmarks' comparison with Tidemark
 * (docs/benchmarks.md, "Apache Omid 1.1.3 in the same harness"): timestamp storage and commit table in HBase (tables of
 * its own), created by Omid's own table tool with a 16-region commit table; Omid's default wait strategy; no lease
 * (no high availability); a conflict map of Tidemark's default size. Clients connect to it directly.
 */
public final class OmidTso implements AutoCloseable {

    /**
     * Omid's own default, kept as in the recorded runs of docs/benchmarks.md (Tidemark's commit table had 16 regions
     * then; it has tidemark.commit-table.regions, 4 by default, since).
     */
    private static final int COMMIT_TABLE_REGIONS = 16;
    private static final String WAIT_STRATEGY = TSOServerConfig.WAIT_STRATEGY.LOW_CPU.name();
    /**
     * Numbers the TSOs of this JVM: each has tables of its own, as two Omid TSOs on one timestamp table make the
     * older one exit the JVM.
     */
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Configuration hbase;
    private final String commitTable;
    private final TSOServer server;
    private final StoppableTimestampStorage timestamps;
    private final int port;

    private OmidTso(Configuration hbase, String commitTable, TSOServer server, StoppableTimestampStorage timestamps,
                    int port) {
        this.hbase = hbase;
        this.commitTable = commitTable;
        this.server = server;
        this.timestamps = timestamps;
        this.port = port;
    }

    /** Creates Omid's tables in the HBase of {@code hbase}, then starts the TSO on a free port. */
    public static OmidTso start(Configuration hbase) throws IOException {
        int instance = INSTANCES.incrementAndGet();
        String commitTable = HBaseCommitTableConfig.DEFAULT_COMMIT_TABLE_NAME + "_" + instance;
        String timestampTable = HBaseTimestampStorageConfig.DEFAULT_TIMESTAMP_STORAGE_TABLE_NAME + "_" + instance;
        new OmidTableManager("commit-table", "-tableName", commitTable, "-numRegions",
                String.valueOf(COMMIT_TABLE_REGIONS)).executeActionsOnHBase(hbase);
        new OmidTableManager("timestamp-table", "-tableName", timestampTable).executeActionsOnHBase(hbase);
        HBaseTimestampStorageConfig timestampConfig = new HBaseTimestampStorageConfig();
        timestampConfig.setTableName(timestampTable);
        StoppableTimestampStorage timestamps = new StoppableTimestampStorage(
                new HBaseTimestampStorage(hbase, timestampConfig));
        int port = freePort();
        TSOServerConfig config = new TSOServerConfig();
        config.setPort(port);
        config.setLowLatency(true);
        config.setWaitStrategy(WAIT_STRATEGY);
        config.setConflictMapSize(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.defaultValue());
        config.setNetworkIfaceName("lo");
        config.setTimestampStoreModule(new AbstractModule() {
            @Override
            protected void configure() {
                bind(TimestampStorage.class).toInstance(timestamps);
            }
        });
        config.setCommitTableStoreModule(new AbstractModule() {
            @Override
            protected void configure() {
                bindConstant().annotatedWith(Names.named(HBaseCommitTableConfig.COMMIT_TABLE_NAME_KEY))
                        .to(commitTable);
                install(new HBaseCommitTableStorageModule());
            }
        });
        config.setLeaseModule(new NoLease(hbase));
        TSOServer server = TSOServer.getInitializedTsoServer(config);
        server.startAsync().awaitRunning();
        return new OmidTso(hbase, commitTable, server, timestamps, port);
    }

    /** An Omid client's configuration for this TSO, with Omid's defaults otherwise but {@code postCommit}. */
    public HBaseOmidClientConfiguration clientConfiguration(PostCommitMode postCommit) {
        HBaseOmidClientConfiguration config = new HBaseOmidClientConfiguration();
        config.setHBaseConfiguration(hbase);
        config.setCommitTableName(commitTable);
        config.setConnectionString(address());
        config.setPostCommitMode(postCommit == PostCommitMode.ASYNC ? OmidClientConfiguration.PostCommitMode.ASYNC
                : OmidClientConfiguration.PostCommitMode.SYNC);
        return config;
    }

    /** The configuration of a bare Omid TSO client of this TSO. */
    public OmidClientConfiguration tsoClientConfiguration() {
        OmidClientConfiguration config = new OmidClientConfiguration();
        config.setConnectionString(address());
        return config;
    }

    /** The name of this TSO's commit table. */
    public String commitTableName() {
        return commitTable;
    }

    private String address() {
        return "127.0.0.1:" + port;
    }

    /** Omid's TSO takes a port number, not a bound socket: a free one is picked, then handed to it. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", 0));
            return socket.getLocalPort();
        }
    }

    /**
     * Omid's own module for a TSO without a lease, but with the HBase configuration of this benchmark: Omid's
     * {@code VoidLeaseManagementModule} binds one read from the class path instead, for every module of the TSO.
     */
    private static final class NoLease extends AbstractModule {

        private final Configuration hbase;

        NoLease(Configuration hbase) {
            this.hbase = hbase;
        }

        @Override
        protected void configure() {
            bind(Configuration.class).toInstance(hbase);
        }

        @Provides
        @Singleton
        LeaseManagement leaseManagement(TSOChannelHandler channelHandler, TSOStateManager stateManager) {
            return new VoidLeaseManager(channelHandler, stateManager);
        }
    }

    @Override
    public void close() throws IOException {
        server.stopAsync().awaitTerminated();
        timestamps.stop();
    }
}
