package io.tidemark.tso.lease;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.tidemark.lease.TsoLeaseNode;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One lease shared by the TSOs of one process (tests, single-process embedded use): the first to ask holds it, the
 * others wait until it is released or {@link #revokeHolder revoked}. It never runs out by itself.
 */
public final class InMemoryLeases {

    @GuardedBy("this")
    private @Nullable TsoLeaseNode holderNode;
    @GuardedBy("this")
    private @Nullable HeldLease holder;

    /** An election for a TSO described by {@code self}. */
    public LeaseElection election(TsoLeaseNode self) {
        return new Election(self);
    }

    /** The current holder, or null. */
    public synchronized @Nullable TsoLeaseNode holder() {
        return holderNode;
    }

    /**
     * Ends the current holder's lease as if another TSO had taken it over: its loss listener is told, and the next
     * waiting TSO gets the lease.
     *
     * @return whether there was a holder
     */
    public boolean revokeHolder(String reason) {
        HeldLease revoked;
        synchronized (this) {
            revoked = holder;
            if (revoked == null) {
                return false;
            }
            clear(revoked);
        }
        revoked.lose(reason);
        return true;
    }

    private synchronized void clear(HeldLease lease) {
        if (holder == lease) {
            holder = null;
            holderNode = null;
            notifyAll();
        }
    }

    private final class Election implements LeaseElection {

        private final TsoLeaseNode self;
        private volatile boolean closed;

        Election(TsoLeaseNode self) {
            this.self = self;
        }

        @Override
        public Lease acquire(LeaseLossListener onLoss, Consumer<TsoLeaseNode> onStandby)
                throws InterruptedException {
            synchronized (InMemoryLeases.this) {
                if (holder != null) {
                    onStandby.accept(holderNode);
                }
                while (holder != null) {
                    if (closed) {
                        throw new InterruptedException("the lease election was closed");
                    }
                    InMemoryLeases.this.wait(50);
                }
                if (closed) {
                    throw new InterruptedException("the lease election was closed");
                }
                holder = new HeldLease(onLoss);
                holderNode = self;
                return holder;
            }
        }

        @Override
        public @Nullable TsoLeaseNode lastSeenHolder() {
            return holder();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private final class HeldLease implements Lease {

        private final LeaseLossListener onLoss;
        private final AtomicBoolean ended = new AtomicBoolean();

        HeldLease(LeaseLossListener onLoss) {
            this.onLoss = onLoss;
        }

        @Override
        public boolean isValid() {
            return !ended.get();
        }

        void lose(String reason) {
            if (ended.compareAndSet(false, true)) {
                onLoss.leaseLost(reason);
            }
        }

        @Override
        public void release() {
            if (ended.compareAndSet(false, true)) {
                clear(this);
            }
        }
    }
}
