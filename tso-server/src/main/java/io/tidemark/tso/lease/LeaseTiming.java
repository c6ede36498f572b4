package io.tidemark.tso.lease;

import java.time.Duration;

/**
 * Lease periods. A renewal that starts at t keeps the lease valid for its holder until t + period - margin (holder's
 * monotonic clock); a standby takes over only once the lease has not changed for period + margin on its own clock,
 * counted from when it first saw the current version. The holder's end is therefore always before the standby's
 * start, with 2 × margin to spare for clock-rate differences and for a reply that passed its lease check just before
 * the end.
 */
public final class LeaseTiming {

    private final long periodNanos;
    private final long renewIntervalNanos;
    private final long marginNanos;

    public LeaseTiming(Duration period, Duration renewInterval, Duration margin) {
        if (margin.isNegative() || renewInterval.isNegative() || renewInterval.isZero()) {
            throw new IllegalArgumentException("lease renew interval must be positive and margin not negative");
        }
        if (renewInterval.plus(margin).compareTo(period) >= 0) {
            throw new IllegalArgumentException("lease period (" + period.toMillis() + " ms) must exceed renew interval ("
                    + renewInterval.toMillis() + " ms) plus margin (" + margin.toMillis() + " ms)");
        }
        this.periodNanos = period.toNanos();
        this.renewIntervalNanos = renewInterval.toNanos();
        this.marginNanos = margin.toNanos();
    }

    public long periodNanos() {
        return periodNanos;
    }

    public long renewIntervalNanos() {
        return renewIntervalNanos;
    }

    public long marginNanos() {
        return marginNanos;
    }

    /** How long after a renewal that started at {@code renewalStart} the holder may still reply. */
    long validUntil(long renewalStart) {
        return renewalStart + periodNanos - marginNanos;
    }

    /** How long a standby waits, after first seeing a lease version, before it may take the lease. */
    long takeOverAfterNanos() {
        return periodNanos + marginNanos;
    }
}
