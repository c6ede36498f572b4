package io.tidemark.tso;

import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.lease.Lease;
import io.tidemark.tso.netty.ServingGate;
import io.tidemark.tso.processing.CommitCompletion;
import io.tidemark.tso.processing.LowWatermarkPersister;
import io.tidemark.tso.processing.TransactionProcessor;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a TSO serves with once it took the lease ({@link TakeOver}): its epoch, the cluster settings, the conflict map
 * and the threads of the incarnation (the claims of timestamp blocks, the commit completion, the low-watermark
 * persister), all of which {@link #close()} ends. Thread-safe.
 */
final class ActiveIncarnation implements AutoCloseable {

    private final Lease lease;
    private final long epoch;
    private final ClusterSettings clusterSettings;
    private final ConflictMap conflictMap;
    private final TransactionProcessor processor;
    private final CommitCompletion completion;
    private final LowWatermarkPersister lowWatermarkPersister;
    private final ExecutorService timestampClaims;
    private final AtomicBoolean closed = new AtomicBoolean();

    ActiveIncarnation(Lease lease, long epoch, ClusterSettings clusterSettings, ConflictMap conflictMap,
            TransactionProcessor processor, CommitCompletion completion, LowWatermarkPersister lowWatermarkPersister,
            ExecutorService timestampClaims) {
        this.lease = lease;
        this.epoch = epoch;
        this.clusterSettings = clusterSettings;
        this.conflictMap = conflictMap;
        this.processor = processor;
        this.completion = completion;
        this.lowWatermarkPersister = lowWatermarkPersister;
        this.timestampClaims = timestampClaims;
    }

    Lease lease() {
        return lease;
    }

    /** Every timestamp of earlier incarnations is at or below it; this one's are above it. */
    long epoch() {
        return epoch;
    }

    ClusterSettings clusterSettings() {
        return clusterSettings;
    }

    ConflictMap conflictMap() {
        return conflictMap;
    }

    /** What the connections serve once the gate lets them. */
    ServingGate.Incarnation forGate() {
        return new ServingGate.Incarnation(processor, epoch, clusterSettings, lease);
    }

    /**
     * Finishes queued commit-table writes and ends the incarnation's threads, once; the lease is the server's to end.
     * What the incarnation served with stays readable.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        completion.close();
        lowWatermarkPersister.close();
        timestampClaims.shutdownNow();
    }
}
