package io.tidemark.tso.netty;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.util.concurrent.EventExecutorGroup;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Logs a kind of event that may come in floods (refused connections, timed-out handshakes, bad frames): the first of a
 * burst in full, then at most one summary line per window for as long as the burst lasts, instead of one line per
 * event. An attack of thousands of connections thus costs a few log lines, not a full disk. Thread-safe.
 */
final class BurstLog {

    static final long WINDOW_SECONDS = 10;

    private final Logger log;
    private final String kind;
    private final EventExecutorGroup timer;
    @GuardedBy("this")
    private boolean burst;
    @GuardedBy("this")
    private long suppressed;
    @GuardedBy("this")
    private @Nullable String lastDetail;

    /**
     * @param kind what the events are, for the summary line (e.g. "connections refused at the limit")
     * @param timer schedules the summaries
     */
    BurstLog(Logger log, String kind, EventExecutorGroup timer) {
        this.log = log;
        this.kind = kind;
        this.timer = timer;
    }

    /** One event; {@code message} says what happened and what to do, and is logged only for the first of a burst. */
    synchronized void warn(String message) {
        if (burst) {
            suppressed++;
            lastDetail = message;
            return;
        }
        burst = true;
        log.warn("{} (further {} within {} s are summarized)", message, kind, WINDOW_SECONDS);
        scheduleSummary();
    }

    @GuardedBy("this")
    private void scheduleSummary() {
        try {
            timer.schedule(this::summarize, WINDOW_SECONDS, TimeUnit.SECONDS);
        } catch (RejectedExecutionException shuttingDown) {
            burst = false;
        }
    }

    private synchronized void summarize() {
        if (suppressed == 0) {
            burst = false;
            return;
        }
        log.warn("{} more {} in the last {} s; the last: {}", suppressed, kind, WINDOW_SECONDS, lastDetail);
        suppressed = 0;
        lastDetail = null;
        scheduleSummary();
    }
}
