package io.tidemark.workload.bank;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/** Counters shared by the transfer threads and the auditor; every method is thread-safe. */
final class BankStats {

    private final LongAdder committed = new LongAdder();
    private final LongAdder aborted = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder audits = new LongAdder();
    private final ConcurrentHistogram latencyMicros = new ConcurrentHistogram(3);
    private final AtomicReference<String> violation = new AtomicReference<>();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    void recordCommit(long latencyNanos) {
        committed.increment();
        latencyMicros.recordValue(Math.max(1, latencyNanos / 1000));
    }

    void recordAbort() {
        aborted.increment();
    }

    void recordError(Exception e) {
        errors.increment();
        firstError.compareAndSet(null, e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    void recordAudit() {
        audits.increment();
    }

    /** Keeps the first violation: later ones usually follow from it. */
    void recordViolation(String description) {
        violation.compareAndSet(null, description);
    }

    long committed() {
        return committed.sum();
    }

    long aborted() {
        return aborted.sum();
    }

    long errors() {
        return errors.sum();
    }

    long audits() {
        return audits.sum();
    }

    String violation() {
        return violation.get();
    }

    String firstError() {
        return firstError.get();
    }

    Histogram latencyMicros() {
        return latencyMicros.copy();
    }
}
