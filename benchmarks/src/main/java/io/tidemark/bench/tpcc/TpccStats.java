package io.tidemark.bench.tpcc;

import io.tidemark.client.TransactionAbortedException;
import org.HdrHistogram.Histogram;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What one terminal thread counted during the measured seconds; threads' stats are merged at the end. Latency is
 * recorded for committed transactions only, from BEGIN to the return of COMMIT, in microseconds.
 */
public final class TpccStats {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final Histogram newOrderMicros = new Histogram(HIGHEST_MICROS, 3);
    private final Histogram paymentMicros = new Histogram(HIGHEST_MICROS, 3);
    private final Map<TransactionAbortedException.Reason, Long> aborts =
            new EnumMap<>(TransactionAbortedException.Reason.class);
    private long userRollbacks;
    private long errors;
    private Throwable firstError;

    void committed(TpccTerminal.Kind kind, long micros) {
        (kind == TpccTerminal.Kind.NEW_ORDER ? newOrderMicros : paymentMicros)
                .recordValue(Math.min(micros, HIGHEST_MICROS));
    }

    /** A New-Order rolled back by the terminal on its invalid item, as TPC-C requires of 1% of them. */
    void userRollback() {
        userRollbacks++;
    }

    void aborted(TransactionAbortedException.Reason reason) {
        aborts.merge(reason, 1L, Long::sum);
    }

    void error(Throwable error) {
        errors++;
        if (firstError == null) {
            firstError = error;
        }
    }

    /** Adds {@code other}'s counts to this one's. */
    void add(TpccStats other) {
        newOrderMicros.add(other.newOrderMicros);
        paymentMicros.add(other.paymentMicros);
        other.aborts.forEach((reason, n) -> aborts.merge(reason, n, Long::sum));
        userRollbacks += other.userRollbacks;
        errors += other.errors;
        if (firstError == null) {
            firstError = other.firstError;
        }
    }

    public long newOrders() {
        return newOrderMicros.getTotalCount();
    }

    public long payments() {
        return paymentMicros.getTotalCount();
    }

    public Histogram newOrderMicros() {
        return newOrderMicros;
    }

    public Histogram paymentMicros() {
        return paymentMicros;
    }

    public Map<TransactionAbortedException.Reason, Long> aborts() {
        return Map.copyOf(aborts);
    }

    public long abortCount() {
        return aborts.values().stream().mapToLong(Long::longValue).sum();
    }

    public long userRollbacks() {
        return userRollbacks;
    }

    public long errors() {
        return errors;
    }

    /** The first unexpected failure, or null. */
    public Throwable firstError() {
        return firstError;
    }
}
