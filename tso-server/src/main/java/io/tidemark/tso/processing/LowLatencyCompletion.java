package io.tidemark.tso.processing;

import io.tidemark.certificate.DecisionKey;
import io.netty.channel.ChannelHandlerContext;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.tso.TsoMetrics;

/**
 * Low-latency mode: both replies go out at once; the client writes its own commit record, with the certificate this
 * incarnation's key seals into COMMITTED (docs/security.md).
 */
public final class LowLatencyCompletion implements CommitCompletion {

    private final TsoMetrics metrics;
    private final DecisionKey key;

    public LowLatencyCompletion(TsoMetrics metrics, DecisionKey key) {
        this.metrics = metrics;
        this.key = key;
    }

    @Override
    public void begun(ChannelHandlerContext client, long requestId, long startTimestamp, long commitToken,
                      long receivedNanos) {
        client.write(new BeginReply(requestId, startTimestamp, commitToken), client.voidPromise());
        metrics.beginAnswered(receivedNanos);
    }

    @Override
    public void committed(ChannelHandlerContext client, long requestId, long startTimestamp, long commitTimestamp,
                          long receivedNanos) {
        metrics.commits().inc();
        client.write(new CommittedReply(requestId, startTimestamp, commitTimestamp,
                key.commitCertificate(startTimestamp, commitTimestamp), key.releaseToken(startTimestamp)),
                client.voidPromise());
        metrics.commitAnswered(receivedNanos);
    }

    @Override
    public void close() {
        // Nothing is pending in this mode.
    }
}
