package io.tidemark.tso.lease;

import io.tidemark.lease.TsoLeaseNode;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.function.Consumer;

/** The competition of the TSOs of one timestamp table for the lease. One election per TSO process. */
public interface LeaseElection extends AutoCloseable {

    /**
     * Blocks until this TSO holds the lease: at once when nobody holds it, otherwise once the holder released it or
     * stopped renewing it for a whole lease period plus the margin. Call at most once.
     *
     * @param onLoss told when the lease ends without {@link Lease#release()}
     * @param onStandby told once if another TSO holds the lease (the holder, or null when unreadable)
     * @throws InterruptedException when interrupted or {@link #close() closed} while waiting
     * @throws IOException when the lease store cannot be used at all
     */
    Lease acquire(LeaseLossListener onLoss, Consumer<TsoLeaseNode> onStandby)
            throws IOException, InterruptedException;

    /** The holder as last seen while waiting (for a standby's answers to clients), or null when unknown. */
    @Nullable TsoLeaseNode lastSeenHolder();

    /** Stops waiting and renewing; a held lease is not released (call {@link Lease#release()} for that). */
    @Override
    void close();
}
