package io.tidemark.chaos.workload;

import io.tidemark.client.AsyncTransactionManager;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

/**
 * The two transaction managers of a client process: one with the client's defaults, which keeps a transaction's
 * writes until commit and commits a transaction that wrote one region with one request to it (a single-region
 * commit, docs/architecture.md); and one that sends every write at once and commits through the TSO, so that readers
 * meet running transactions' tentative writes. Generic transactions pick one at random. When the run's configuration
 * turns lazy begin on ({@code tidemark.client.lazy-begin}), a third manager begins lazily, for write-only
 * transactions that commit in their region without any TSO round trip; the other two begin at once either way. Both
 * of the first two also serve the non-blocking API ({@link AsyncTransactionManager}, over an asynchronous connection
 * of their own), so that its commit path is under the checker too.
 */
public final class ClientManagers implements AutoCloseable {

    private final TransactionManager inRegion;
    private final TransactionManager sentAtOnce;
    private final @Nullable TransactionManager lazy;
    private final AsyncConnection asyncConnection;

    private ClientManagers(TransactionManager inRegion, TransactionManager sentAtOnce,
            @Nullable TransactionManager lazy, AsyncConnection asyncConnection) {
        this.inRegion = inRegion;
        this.sentAtOnce = sentAtOnce;
        this.lazy = lazy;
        this.asyncConnection = asyncConnection;
    }

    /**
     * The managers over {@code connection}, from {@code config} (which this leaves unchanged), and an asynchronous
     * connection with {@code connection}'s configuration for their non-blocking views.
     */
    public static ClientManagers open(Connection connection, TidemarkConfig config) throws IOException {
        AsyncConnection async = openAsync(connection);
        boolean lazyBegin = config.get(TidemarkConfig.CLIENT_LAZY_BEGIN);
        TidemarkConfig atOnce = beginningAtOnce(config);
        atOnce.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES, "0");
        atOnce.set(TidemarkConfig.CLIENT_METRICS_NAME, "chaos-sent-at-once");
        TidemarkConfig beginning = lazyBegin ? beginningAtOnce(config) : config;
        List<TransactionManager> opened = new ArrayList<>();
        try {
            opened.add(TransactionManager.builder(connection).config(beginning).build());
            opened.add(TransactionManager.builder(connection).config(atOnce).build());
            if (lazyBegin) {
                TidemarkConfig lazy = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
                lazy.set(TidemarkConfig.CLIENT_METRICS_NAME, "chaos-lazy");
                opened.add(TransactionManager.builder(connection).config(lazy).build());
            }
        } catch (RuntimeException e) {
            opened.forEach(TransactionManager::close);
            try {
                async.close();
            } catch (IOException alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        return new ClientManagers(opened.get(0), opened.get(1), lazyBegin ? opened.get(2) : null, async);
    }

    private static AsyncConnection openAsync(Connection connection) throws IOException {
        try {
            return ConnectionFactory.createAsyncConnection(connection.getConfiguration()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while opening an asynchronous connection");
        } catch (ExecutionException e) {
            throw new IOException("could not open an asynchronous connection to HBase", e.getCause());
        }
    }

    /** A copy of {@code config} whose manager begins at once. */
    private static TidemarkConfig beginningAtOnce(TidemarkConfig config) {
        TidemarkConfig copy = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        copy.set(TidemarkConfig.CLIENT_LAZY_BEGIN, "false");
        return copy;
    }

    /** Keeps writes until commit; commits in one region's request when it can. */
    public TransactionManager inRegion() {
        return inRegion;
    }

    /** Sends every write at once; commits through the TSO. */
    public TransactionManager sentAtOnce() {
        return sentAtOnce;
    }

    /** The non-blocking view of {@link #inRegion} (which keeps writes) or of {@link #sentAtOnce}. */
    public AsyncTransactionManager nonBlocking(boolean keepsWrites) {
        return AsyncTransactionManager.over(keepsWrites ? inRegion : sentAtOnce, asyncConnection);
    }

    /** Begins lazily; null unless the run turned lazy begin on. */
    public @Nullable TransactionManager lazy() {
        return lazy;
    }

    @Override
    public void close() throws IOException {
        if (lazy != null) {
            lazy.close();
        }
        sentAtOnce.close();
        inRegion.close();
        asyncConnection.close();
    }
}
