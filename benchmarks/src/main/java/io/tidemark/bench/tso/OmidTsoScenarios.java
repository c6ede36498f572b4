package io.tidemark.bench.tso;

import io.tidemark.bench.omid.OmidTso;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.omid.committable.CommitTable;
import org.apache.omid.committable.hbase.HBaseCommitTable;
import org.apache.omid.committable.hbase.HBaseCommitTableConfig;
import org.apache.omid.tso.client.TSOClient;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The twins of the low-latency scenarios on Apache Omid's TSO in low-latency mode ({@link OmidTso}): Omid's TSO alone,
 * and with each commit's record written by the call Omid's client makes after COMMIT. Each client is an Omid
 * {@link TSOClient} of its own keeping the benchmark's window of pairs outstanding.
 */
final class OmidTsoScenarios {

    static final String TSO_ONLY = "omid low-latency TSO only";
    static final String WITH_COMMIT_RECORD = "omid low-latency + commit record";
    /** The scenarios this class measures, for the benchmark's planned time. */
    static final int COUNT = 2;
    private static final String COMMIT_MODE = "omid low-latency";

    private final Connection connection;
    private final int clients;
    private final int window;
    private final Measurement measurement;

    OmidTsoScenarios(Connection connection, int clients, int window, Measurement measurement) {
        this.connection = connection;
        this.clients = clients;
        this.window = window;
        this.measurement = measurement;
    }

    /** Starts Omid's TSO, measures both scenarios, stops it; {@code starting} is told each scenario's name. */
    List<TsoRunResult> run(Consumer<String> starting) throws IOException, InterruptedException {
        try (OmidTso tso = OmidTso.start(connection.getConfiguration())) {
            List<TsoRunResult> results = new ArrayList<>();
            starting.accept(TSO_ONLY);
            results.add(measure(tso, TSO_ONLY, null));
            HBaseCommitTableConfig table = new HBaseCommitTableConfig();
            table.setTableName(tso.commitTableName());
            CommitTable.Writer records = new HBaseCommitTable(connection, table).getWriter();
            starting.accept(WITH_COMMIT_RECORD);
            results.add(measure(tso, WITH_COMMIT_RECORD, records));
            return results;
        }
    }

    private TsoRunResult measure(OmidTso tso, String scenario, CommitTable.Writer records)
            throws IOException, InterruptedException {
        PairLoad.Stats stats = new PairLoad.Stats();
        List<TSOClient> tsoClients = new ArrayList<>();
        // A thread for each pair in flight, as each of Omid's application threads writes its own commit record.
        ExecutorService recordThreads = Executors.newFixedThreadPool(clients * window);
        try {
            List<OmidPairLoad> loads = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                TSOClient client = TSOClient.newInstance(tso.tsoClientConfiguration());
                tsoClients.add(client);
                loads.add(new OmidPairLoad(client, records, recordThreads, stats));
            }
            loads.forEach(l -> l.startWindow(window));
            return measurement.measure(scenario, COMMIT_MODE, 0, stats, loads, () -> { });
        } finally {
            for (TSOClient client : tsoClients) {
                client.close();
            }
            recordThreads.shutdown();
            recordThreads.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
