package io.tidemark.tso;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tidemark.certificate.DecisionKey;
import io.tidemark.committable.CommitTable;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.cluster.ClusterSettingsAgreement;
import io.tidemark.tso.cluster.ClusterSettingsStore;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.conflict.KeyedHash;
import io.tidemark.tso.lease.Lease;
import io.tidemark.tso.processing.BatchedCompletion;
import io.tidemark.tso.processing.CommitCompletion;
import io.tidemark.tso.processing.CommitTokens;
import io.tidemark.tso.processing.Fences;
import io.tidemark.tso.processing.LowLatencyCompletion;
import io.tidemark.tso.processing.LowWatermarkPersister;
import io.tidemark.tso.processing.TransactionProcessor;
import io.tidemark.tso.timestamp.TimestampOracle;
import io.tidemark.tso.timestamp.TimestampStorage;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.security.auth.x500.X500Principal;

/**
 * Taking over as the active TSO once the lease is held: agree the cluster settings, claim the epoch in the timestamp
 * table, record the incarnation's decision key before any COMMIT is answered, and build the state it serves with
 * ({@link ActiveIncarnation}). Nothing is served until the server opens its gate to the result.
 */
final class TakeOver {

    private final TsoSettings settings;
    private final TimestampStorage timestampStorage;
    private final CommitTable commitTable;
    private final ClusterSettingsStore clusterSettingsStore;
    private final ClusterSettingsAgreement agreement;
    private final TsoMetrics metrics;

    TakeOver(TsoSettings settings, TimestampStorage timestampStorage, CommitTable commitTable,
            ClusterSettingsStore clusterSettingsStore, ClusterSettingsAgreement agreement, TsoMetrics metrics) {
        this.settings = settings;
        this.timestampStorage = timestampStorage;
        this.commitTable = commitTable;
        this.clusterSettingsStore = clusterSettingsStore;
        this.agreement = agreement;
        this.metrics = metrics;
    }

    /**
     * Builds the incarnation that serves under {@code held}.
     *
     * @param loop the event loop every connection and the transaction state live on
     * @param mayServe whether the incarnation's replies may go out now (the server's gate)
     * @param stopServing told when the timestamp bound is lost
     * @throws IOException when HBase could not be read or written; nothing of the incarnation is left running
     */
    ActiveIncarnation build(Lease held, EventLoop loop, BooleanSupplier mayServe, Consumer<String> stopServing)
            throws IOException {
        ClusterSettings cluster = agreement.agree(clusterSettingsStore);
        ExecutorService timestampClaims = Executors.newSingleThreadExecutor(
                new DefaultThreadFactory("tidemark-tso-timestamps", true));
        try {
            return build(held, loop, mayServe, stopServing, cluster, timestampClaims);
        } catch (IOException | RuntimeException e) {
            timestampClaims.shutdownNow();
            throw e;
        }
    }

    private ActiveIncarnation build(Lease held, EventLoop loop, BooleanSupplier mayServe,
            Consumer<String> stopServing, ClusterSettings cluster, ExecutorService timestampClaims)
            throws IOException {
        TimestampOracle oracle = TimestampOracle.start(timestampStorage, timestampClaims, settings.timestampBlock(),
                System::currentTimeMillis, stopServing);
        SecureRandom secrets = new SecureRandom();
        // Recorded before the first COMMIT is answered, so the commit-record guard knows every seal it meets.
        DecisionKey decisionKey = DecisionKey.generate(oracle.epoch(), secrets);
        timestampStorage.recordDecisionKey(decisionKey);
        // The GC horizon stays where it was: transactions of earlier incarnations are refused with STALE_EPOCH
        // anyway, and raising the persisted low watermark to the epoch would make running snapshots too old.
        long persistedLowWatermark = commitTable.readLowWatermark();
        ConflictMap conflictMap = new ConflictMap(settings.conflictMapEntries(), persistedLowWatermark,
                KeyedHash.random(secrets), evicted -> metrics.evictions().inc());
        CommitCompletion completion = cluster.commitMode() == CommitMode.BATCHED
                ? new BatchedCompletion(loop, commitTable, settings.commitTable().writeParallelism(),
                        settings.batchMaxSize(), settings.batchFlushTimeoutMs(),
                        settings.commitTable().commitRecordTimeoutMs(), metrics, mayServe, decisionKey)
                : new LowLatencyCompletion(metrics, decisionKey);
        CommitTokens tokens = new CommitTokens(secrets);
        TransactionProcessor processor = new TransactionProcessor(oracle, conflictMap, completion, tokens,
                new Fences(KeyedHash.random(secrets), fenceIdentities(tokens)), KeyedHash.random(secrets),
                settings.maxWriteSet(), settings.transactionTimeoutMs(), metrics);
        LowWatermarkPersister lowWatermarkPersister = new LowWatermarkPersister(conflictMap, commitTable,
                persistedLowWatermark, settings.lowWatermarkPersistIntervalMs(), mayServe, metrics::error);
        return new ActiveIncarnation(held, oracle.epoch(), cluster, conflictMap, processor, completion,
                lowWatermarkPersister, timestampClaims);
    }

    /** The identities of the clients {@code tidemark.tso.fence.allowed-clients} names, as {@code tokens} has them. */
    private Set<Long> fenceIdentities(CommitTokens tokens) {
        Set<Long> identities = new HashSet<>();
        ClientPrincipals allowed = settings.fenceAllowedClients();
        if (allowed.anonymous()) {
            identities.add(CommitTokens.ANONYMOUS);
        }
        for (X500Principal subject : allowed.subjects()) {
            identities.add(tokens.identityOf(subject));
        }
        return identities;
    }
}
