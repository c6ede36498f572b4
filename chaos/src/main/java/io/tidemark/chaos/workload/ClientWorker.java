package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.HistoryFiles;
import io.tidemark.chaos.history.HistoryLog;
import io.tidemark.client.TTable;
import io.tidemark.client.fastpath.FastPathTable;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * One client: random generic transactions and fast-path operations, one after the other, until told to stop. Its
 * history goes to {@code <client>.history} in the run's directory. Runs the same in this JVM and in a child JVM.
 */
public final class ClientWorker implements Callable<Long> {

    private final String client;
    private final Connection connection;
    private final Connection fastPathConnection;
    private final ClientManagers managers;
    private final TableName table;
    private final WorkloadSettings settings;
    private final Path historyDirectory;
    private final long seed;
    private final BooleanSupplier keepGoing;

    /**
     * @param connection for generic transactions
     * @param fastPathConnection for fast-path operations (the same, or one that injects faults into them)
     */
    public ClientWorker(String client, Connection connection, Connection fastPathConnection,
                        ClientManagers managers, TableName table, WorkloadSettings settings, Path historyDirectory, long seed,
                        BooleanSupplier keepGoing) {
        this.client = client;
        this.connection = connection;
        this.fastPathConnection = fastPathConnection;
        this.managers = managers;
        this.table = table;
        this.settings = settings;
        this.historyDirectory = historyDirectory;
        this.seed = seed;
        this.keepGoing = keepGoing;
    }

    /** Runs until {@code keepGoing} says stop; returns how many operations it tried. */
    @Override
    public Long call() throws Exception {
        Random random = new Random(seed);
        long seq = 0;
        try (HistoryLog log = new HistoryLog(HistoryFiles.fileOf(historyDirectory, client), client);
             TTable tTable = new TTable(connection, table);
             FastPathTable fastPath = FastPathTable.builder(fastPathConnection, table).transactionManager(managers.inRegion())
                     .build()) {
            GenericTransactions generic = new GenericTransactions(managers, tTable, settings, log, random);
            FastPathOperations fast = new FastPathOperations(fastPath, settings.keySpace(), log, random);
            while (keepGoing.getAsBoolean()) {
                seq++;
                if (random.nextDouble() < settings.mix().fastPath()) {
                    fast.run(seq);
                } else {
                    generic.run(seq, keepGoing);
                }
            }
        }
        return seq;
    }
}
