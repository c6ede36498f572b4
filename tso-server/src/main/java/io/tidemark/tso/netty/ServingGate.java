package io.tidemark.tso.netty;

import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.lease.Lease;
import io.tidemark.tso.processing.TransactionProcessor;
import org.jspecify.annotations.Nullable;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Whether this TSO serves, shared by every connection: a standby answers HELLO with {@code NOT_ACTIVE}; the active
 * TSO answers for its incarnation and checks its lease before every flush of replies; a stopped TSO sends nothing.
 * The phase only moves forward: standby, active, stopped.
 */
public final class ServingGate {

    /** What an active TSO serves with. */
    public static final class Incarnation {
        final TransactionProcessor processor;
        final long epoch;
        final ClusterSettings settings;
        final Lease lease;

        public Incarnation(TransactionProcessor processor, long epoch, ClusterSettings settings, Lease lease) {
            this.processor = processor;
            this.epoch = epoch;
            this.settings = settings;
            this.lease = lease;
        }
    }

    private final Supplier<TsoLeaseNode> activeHolder;
    private final Consumer<String> stopServing;
    private volatile @Nullable Incarnation active;
    private volatile @Nullable String stopReason;

    /**
     * @param activeHolder the active TSO as last seen while standing by (may supply null), named to clients
     * @param stopServing called when a flush finds the lease ended; must not block the calling event loop
     */
    public ServingGate(Supplier<TsoLeaseNode> activeHolder, Consumer<String> stopServing) {
        this.activeHolder = activeHolder;
        this.stopServing = stopServing;
    }

    /** Starts serving {@code incarnation}; from now on every flush needs its lease. */
    public void activate(Incarnation incarnation) {
        if (stopReason == null) {
            active = incarnation;
        }
    }

    /** Stops serving for good; returns false when already stopped. */
    public synchronized boolean stop(String reason) {
        if (stopReason != null) {
            return false;
        }
        stopReason = reason;
        return true;
    }

    public boolean isStopped() {
        return stopReason != null;
    }

    /** Why this TSO stopped, or null while it has not. */
    public @Nullable String stopReason() {
        return stopReason;
    }

    /** Whether replies of the active incarnation may go out now: active, not stopped, lease valid. */
    public boolean mayServe() {
        Incarnation a = active;
        return a != null && stopReason == null && a.lease.isValid();
    }

    /** For a HELLO: the incarnation to announce. */
    Incarnation incarnationForHello() {
        if (stopReason != null) {
            throw new Refusal(ErrorCode.UNAVAILABLE, "this TSO stopped serving: " + stopReason);
        }
        Incarnation a = active;
        if (a == null) {
            TsoLeaseNode holder = activeHolder.get();
            throw new Refusal(ErrorCode.NOT_ACTIVE, holder == null
                    ? "this TSO is a standby taking over the lease; retry shortly"
                    : "this TSO is a standby; the active TSO is " + holder);
        }
        return a;
    }

    /**
     * Whether a flush may go out: a standby only ever flushes its refusals; the active TSO only while its lease
     * holds. A refused flush stops the TSO.
     */
    boolean mayFlush() {
        if (stopReason != null) {
            return false;
        }
        Incarnation a = active;
        if (a == null) {
            return true;
        }
        if (a.lease.isValid()) {
            return true;
        }
        stopServing.accept("the lease ran out before replies could be sent");
        return false;
    }
}
