package io.tidemark.tso.monitoring;

import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.jspecify.annotations.Nullable;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * A Dropwizard {@link Reservoir} cheap enough for every request on the TSO's event loop, over the values of the last
 * {@value #WINDOW_SECONDS} seconds.
 *
 * <p>Dropwizard's default reservoir takes a lock and updates a skip list on every value (a few hundred ns), and its
 * sliding-window reservoirs keep every value of the window (hundreds of MB at the TSO's rates). Here a value goes
 * into an HdrHistogram recorder: a few plain increments plus two ordered writes, no allocation, no lock. Readers
 * (a scrape, a JMX poll) take the values recorded since the previous read as one interval, keep the intervals of the
 * last {@value #WINDOW_SECONDS} seconds and merge them; so percentiles cover at least that window (and the time since
 * the previous read, when reads are further apart). Precision: two significant digits.
 *
 * <p>One writer thread only (the event loop): {@link #update} must not be called from two threads.
 */
public final class EventLoopLatencyReservoir implements Reservoir {

    static final int WINDOW_SECONDS = 60;
    private static final int SIGNIFICANT_DIGITS = 2;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);
    /** Reads less than this apart share one interval, so frequent readers keep at most a minute's worth of them. */
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final class Interval {
        final long startedAt;
        final Histogram values;

        Interval(long startedAt, Histogram values) {
            this.startedAt = startedAt;
            this.values = values;
        }
    }

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(SIGNIFICANT_DIGITS);
    @GuardedBy("this")
    private final ArrayDeque<Interval> window = new ArrayDeque<>();
    /** A histogram of the recorder's that is free for its next interval, or null. */
    @GuardedBy("this")
    private @Nullable Histogram recycled;

    @Override
    public int size() {
        return getSnapshot().size();
    }

    /** Records {@code value} (negative values are recorded as 0). Called by the one writer thread. */
    @Override
    public void update(long value) {
        recorder.recordValue(Math.max(0, value));
    }

    @Override
    public synchronized Snapshot getSnapshot() {
        long now = System.nanoTime();
        Histogram fresh = recorder.getIntervalHistogram(recycled);
        recycled = null;
        Interval last = window.peekLast();
        if (last != null && now - last.startedAt < INTERVAL_NANOS) {
            last.values.add(fresh);
            recycle(fresh);
        } else {
            window.addLast(new Interval(now, fresh));
        }
        while (window.size() > 1 && now - window.peekFirst().startedAt > WINDOW_NANOS) {
            recycle(window.removeFirst().values);
        }
        Histogram merged = new Histogram(SIGNIFICANT_DIGITS);
        for (Interval interval : window) {
            merged.add(interval.values);
        }
        return new HistogramSnapshot(merged);
    }

    @GuardedBy("this")
    private void recycle(Histogram histogram) {
        histogram.reset();
        recycled = histogram;
    }

    /** A read-only view of merged values. */
    private static final class HistogramSnapshot extends Snapshot {

        private final Histogram values;

        HistogramSnapshot(Histogram values) {
            this.values = values;
        }

        @Override
        public double getValue(double quantile) {
            if (quantile < 0 || quantile > 1 || Double.isNaN(quantile)) {
                throw new IllegalArgumentException(quantile + " is not in [0..1]");
            }
            return values.getTotalCount() == 0 ? 0 : values.getValueAtPercentile(quantile * 100);
        }

        /** The value at each whole percentile, 0 to 100: the histogram does not keep individual values. */
        @Override
        public long[] getValues() {
            long[] percentiles = new long[101];
            for (int p = 0; p <= 100; p++) {
                percentiles[p] = values.getTotalCount() == 0 ? 0 : values.getValueAtPercentile(p);
            }
            return percentiles;
        }

        @Override
        public int size() {
            return (int) Math.min(Integer.MAX_VALUE, values.getTotalCount());
        }

        @Override
        public long getMax() {
            return values.getTotalCount() == 0 ? 0 : values.getMaxValue();
        }

        @Override
        public double getMean() {
            return values.getTotalCount() == 0 ? 0 : values.getMean();
        }

        @Override
        public long getMin() {
            return values.getTotalCount() == 0 ? 0 : values.getMinValue();
        }

        @Override
        public double getStdDev() {
            return values.getTotalCount() == 0 ? 0 : values.getStdDeviation();
        }

        @Override
        public void dump(OutputStream output) {
            try (PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(output, StandardCharsets.UTF_8))) {
                for (long value : getValues()) {
                    out.println(value);
                }
            }
        }
    }
}
