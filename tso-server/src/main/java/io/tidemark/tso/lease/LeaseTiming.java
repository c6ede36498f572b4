package io.tidemark.tso.lease;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;

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
        if (!periodOutlastsRenewalAndMargin(period, renewInterval, margin)) {
            throw new IllegalArgumentException("lease period (" + period.toMillis() + " ms) must be "
                    + periodBound(renewInterval, margin));
        }
        this.periodNanos = period.toNanos();
        this.renewIntervalNanos = renewInterval.toNanos();
        this.marginNanos = margin.toNanos();
    }

    /**
     * The timing {@code tidemark.tso.lease.*} configures.
     *
     * @throws InvalidConfigurationException naming the period when it does not outlast a renewal and the margin
     */
    public static LeaseTiming of(TidemarkConfig config) {
        Duration period = Duration.ofMillis(config.get(TidemarkConfig.TSO_LEASE_PERIOD_MS));
        Duration renewInterval = Duration.ofMillis(config.get(TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS));
        Duration margin = Duration.ofMillis(config.get(TidemarkConfig.TSO_LEASE_MARGIN_MS));
        if (!periodOutlastsRenewalAndMargin(period, renewInterval, margin)) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_LEASE_PERIOD_MS,
                    Long.toString(period.toMillis()), periodBound(renewInterval, margin));
        }
        return new LeaseTiming(period, renewInterval, margin);
    }

    /**
     * Whether a renewal keeps the lease longer than the holder waits between renewals plus the margin it stops early
     * by: otherwise a holder that renews on time would still find its lease ended between two renewals.
     */
    private static boolean periodOutlastsRenewalAndMargin(Duration period, Duration renewInterval, Duration margin) {
        return renewInterval.plus(margin).compareTo(period) < 0;
    }

    private static String periodBound(Duration renewInterval, Duration margin) {
        return "more than " + TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS + " (" + renewInterval.toMillis()
                + " ms) plus "
                + TidemarkConfig.TSO_LEASE_MARGIN_MS + " (" + margin.toMillis() + " ms)";
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
        return renewalStart + holdNanos();
    }

    /** How long one renewal keeps the lease valid for its holder: the period less the margin it stops early by. */
    public long holdNanos() {
        return periodNanos - marginNanos;
    }

    /**
     * How long a standby waits, after first seeing a lease version, before it may take the lease: also how long a
     * TSO that stopped renewing may keep clients waiting before another takes over.
     */
    public long takeOverAfterNanos() {
        return periodNanos + marginNanos;
    }
}
