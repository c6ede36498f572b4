package io.tidemark.chaos.run;

import io.tidemark.chaos.history.Timing;
import io.tidemark.chaos.history.WatermarkSamples;
import io.tidemark.committable.HBaseCommitTable;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads the low watermark persisted in the run's commit table every {@value #INTERVAL_MILLIS} ms, from before the
 * clients start until the final reads are done, into {@link WatermarkSamples}; the checker proves it never went down.
 * A read that fails (the commit table's region is away) is skipped.
 */
final class WatermarkSampler implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 250;

    private final HBaseCommitTable commitTable;
    private final WatermarkSamples samples;
    private final Thread thread;
    private volatile boolean stopped;

    private WatermarkSampler(HBaseCommitTable commitTable, WatermarkSamples samples) {
        this.commitTable = commitTable;
        this.samples = samples;
        this.thread = new Thread(this::run, "chaos-watermark-sampler");
        thread.setDaemon(true);
    }

    static WatermarkSampler start(HBaseCommitTable commitTable, Path directory) throws IOException {
        WatermarkSampler sampler = new WatermarkSampler(commitTable, WatermarkSamples.create(directory));
        sampler.thread.start();
        return sampler;
    }

    private void run() {
        while (!stopped) {
            try {
                long watermark = commitTable.readLowWatermark();
                samples.add(new WatermarkSamples.Sample(Timing.nowMicros(), watermark));
            } catch (IOException | RuntimeException e) {
                // The commit table's region is away (moved, its server killed or cut off): sample again later.
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(30_000);
        samples.close();
    }
}
