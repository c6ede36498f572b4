package io.tidemark.bench.txn;

import io.tidemark.bench.report.LatencySummary;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Outcomes and latencies of one group of client threads, recorded from many threads, reset after the warm-up. */
final class TxStats {

    private final Recorder totalMicros = new Recorder(3);
    private final Recorder beginMicros = new Recorder(3);
    private final Recorder operationsMicros = new Recorder(3);
    private final Recorder commitMicros = new Recorder(3);
    private final Recorder commitTsoMicros = new Recorder(3);
    private final Recorder commitRecordMicros = new Recorder(3);
    private final Recorder postCommitMicros = new Recorder(3);
    private final LongAdder aborts = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    /** Latencies count committed transactions only: an abort's time says nothing about the path measured. */
    void record(TxOutcome outcome) {
        if (!outcome.committed()) {
            aborts.increment();
            return;
        }
        totalMicros.recordValue(micros(outcome.totalNanos()));
        beginMicros.recordValue(micros(outcome.beginNanos()));
        operationsMicros.recordValue(micros(outcome.operationsNanos()));
        commitMicros.recordValue(micros(outcome.commitNanos()));
        CommitPhases phases = outcome.commitPhases();
        commitTsoMicros.recordValue(micros(phases.tsoNanos()));
        commitRecordMicros.recordValue(micros(phases.commitRecordNanos()));
        postCommitMicros.recordValue(micros(phases.postCommitNanos()));
    }

    /** The first error recorded since this group started, or null. */
    String firstError() {
        return firstError.get();
    }

    void recordError(Exception e) {
        errors.increment();
        firstError.compareAndSet(null, e.toString());
    }

    void reset() {
        totalMicros.getIntervalHistogram();
        beginMicros.getIntervalHistogram();
        operationsMicros.getIntervalHistogram();
        commitMicros.getIntervalHistogram();
        commitTsoMicros.getIntervalHistogram();
        commitRecordMicros.getIntervalHistogram();
        postCommitMicros.getIntervalHistogram();
        aborts.reset();
        errors.reset();
    }

    /** What was recorded since the last reset, over the {@code seconds} it lasted. */
    TxMeasurement snapshot(String label, double seconds) {
        Histogram total = totalMicros.getIntervalHistogram();
        Histogram begin = beginMicros.getIntervalHistogram();
        Histogram operations = operationsMicros.getIntervalHistogram();
        Histogram commit = commitMicros.getIntervalHistogram();
        return new TxMeasurement(label, seconds, total.getTotalCount(), aborts.sum(), errors.sum(),
                firstError.get(), LatencySummary.of(total), meanMs(begin), meanMs(operations), meanMs(commit),
                meanMs(commitTsoMicros.getIntervalHistogram()), meanMs(commitRecordMicros.getIntervalHistogram()),
                meanMs(postCommitMicros.getIntervalHistogram()));
    }

    private static double meanMs(Histogram micros) {
        return micros.getTotalCount() == 0 ? 0 : micros.getMean() / 1000.0;
    }

    /** At least 1 µs for a time that passed, 0 for a phase that did not happen. */
    private static long micros(long nanos) {
        return nanos == 0 ? 0 : Math.max(1, nanos / 1000);
    }
}
