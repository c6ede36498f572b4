package io.tidemark.tso.processing;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.tidemark.committable.CommitTable;
import io.tidemark.tso.conflict.ConflictMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Copies the conflict map's low watermark into the commit table when it changed, every {@code intervalMs}, on its
 * own thread so the request path never waits for HBase. Only while this TSO may serve: a deposed TSO must not write
 * over its successor's value.
 */
public final class LowWatermarkPersister implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LowWatermarkPersister.class);

    private final ConflictMap conflictMap;
    private final CommitTable commitTable;
    private final ScheduledExecutorService scheduler;
    private final BooleanSupplier mayServe;
    private final Consumer<String> errors;
    @GuardedBy("this")
    private long persisted;
    @GuardedBy("this")
    private boolean failing;

    /** @param errors told about each failed write (for the TSO's last error) */
    public LowWatermarkPersister(ConflictMap conflictMap, CommitTable commitTable, long alreadyPersisted,
                                 long intervalMs, BooleanSupplier mayServe, Consumer<String> errors) {
        this.conflictMap = conflictMap;
        this.errors = errors;
        this.mayServe = mayServe;
        this.commitTable = commitTable;
        this.persisted = alreadyPersisted;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "tidemark-tso-low-watermark");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::persistIfChanged, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }

    private synchronized void persistIfChanged() {
        long current = conflictMap.publishedLowWatermark();
        if (current <= persisted || !mayServe.getAsBoolean()) {
            return;
        }
        try {
            commitTable.raiseLowWatermark(current);
            persisted = current;
            if (failing) {
                LOG.info("Persisting the low watermark works again");
                failing = false;
            }
        } catch (IOException | RuntimeException e) {
            errors.accept("could not persist low watermark " + current + ": " + e);
            if (!failing) {
                LOG.warn("Could not persist low watermark {} (will retry): {}", current, e.toString());
                failing = true;
            }
        }
    }

    /** Stops the schedule and persists the final value (if this TSO still may). */
    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        persistIfChanged();
    }
}
