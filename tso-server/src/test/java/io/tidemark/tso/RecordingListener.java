package io.tidemark.tso;

import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.tso.cluster.ClusterSettings;

import java.util.concurrent.CompletableFuture;

/** Remembers what a TSO told its listener, as futures a test can wait on. */
final class RecordingListener implements TsoServer.Listener {

    final CompletableFuture<TsoLeaseNode> standingBy = new CompletableFuture<>();
    final CompletableFuture<Long> active = new CompletableFuture<>();
    final CompletableFuture<String> stopped = new CompletableFuture<>();

    @Override
    public void standingBy(TsoLeaseNode holder) {
        standingBy.complete(holder);
    }

    @Override
    public void active(long epoch, ClusterSettings settings) {
        active.complete(epoch);
    }

    @Override
    public void stopped(String reason) {
        stopped.complete(reason);
    }
}
