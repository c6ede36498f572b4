package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;

import java.io.IOException;
import java.util.Optional;

/**
 * A region observer that loses replies: when {@link LostReplies} armed its table, it lets a mutation apply (written
 * to the WAL and the memstore, visible to readers) and then answers with a plain, retryable {@link IOException}, so
 * HBase's own client re-sends the mutation, exactly as after a reply lost on the network. It hooks
 * {@code postBatchMutate}, which every mutation path passes once its batch is applied: puts, deletes, multi-requests
 * and the mutation of a check-and-mutate. Attach it with {@link LostReplies#attachTo}; it needs the region servers
 * in this JVM (a mini-cluster).
 */
public final class LostReplyInjector implements RegionCoprocessor, RegionObserver {

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void postBatchMutate(ObserverContext<RegionCoprocessorEnvironment> context,
                                MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        if (LostReplies.loseReply(context.getEnvironment().getRegionInfo().getTable())) {
            throw new IOException("injected lost reply: " + batch.size() + " mutation(s) applied, reply dropped");
        }
    }
}
