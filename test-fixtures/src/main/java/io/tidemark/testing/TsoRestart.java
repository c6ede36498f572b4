package io.tidemark.testing;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Restarts a {@link TestCluster}'s TSO on the same port, the way an operator would: the new incarnation's epoch is
 * above every timestamp handed out before, and it persists that epoch as its low watermark. So everything that began
 * before the restart ends up at or below the persisted low watermark, which is what the commit-table sweeper needs to
 * prove that an invalidated writer can never commit. The cluster's managers reconnect by themselves. Closing stops
 * the new TSO.
 */
public final class TsoRestart implements AutoCloseable {

    private static final long WAIT_SECONDS = 60;

    private final TsoServer tso;

    private TsoRestart(TsoServer tso) {
        this.tso = tso;
    }

    /**
     * Stops {@code cluster}'s TSO, starts a new one with its configuration on the same port, and waits until the new
     * low watermark is persisted in the commit table.
     */
    public static TsoRestart of(TestCluster cluster) throws IOException {
        int port = cluster.tso.port();
        cluster.tso.close();
        TidemarkConfig config = new TidemarkConfig(new Configuration(
                cluster.config.hadoopConfiguration()));
        config.set(TidemarkConfig.TSO_PORT, String.valueOf(port));
        TsoServer restarted = TestCluster.startTso(config);
        TsoRestart restart = new TsoRestart(restarted);
        try {
            restart.awaitPersistedLowWatermark(cluster);
        } catch (IOException | RuntimeException e) {
            restart.close();
            throw e;
        }
        return restart;
    }

    /** The running TSO. */
    public TsoServer tso() {
        return tso;
    }

    private void awaitPersistedLowWatermark(TestCluster cluster) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (cluster.commitTable.readLowWatermark() < tso.epoch()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the restarted TSO did not persist its low watermark ("
                        + tso.epoch() + ") within " + WAIT_SECONDS + " s");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the low watermark", e);
            }
        }
    }

    @Override
    public void close() {
        tso.close();
    }
}
