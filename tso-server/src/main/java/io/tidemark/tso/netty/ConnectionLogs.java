package io.tidemark.tso.netty;

import io.netty.util.concurrent.EventExecutorGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TSO's log lines about connections, one {@link BurstLog} per kind of trouble: a flood of bad or hostile
 * connections costs a few lines per kind and window, and one kind never hides another.
 */
public final class ConnectionLogs {

    private static final Logger LOG = LoggerFactory.getLogger("io.tidemark.tso.connections");

    final BurstLog refused;
    final BurstLog handshakeTimeouts;
    final BurstLog wrongTransport;
    final BurstLog tlsFailures;
    final BurstLog protocolErrors;
    final BurstLog notAuthorized;
    final BurstLog replyStalls;
    final BurstLog acceptFailures;
    final BurstLog frameLimits;
    final BurstLog allocationFailures;

    /** @param timer schedules the summary lines */
    public ConnectionLogs(EventExecutorGroup timer) {
        refused = new BurstLog(LOG, "connections refused at the limit", timer);
        handshakeTimeouts = new BurstLog(LOG, "handshake timeouts", timer);
        wrongTransport = new BurstLog(LOG, "TLS/plaintext mismatches", timer);
        tlsFailures = new BurstLog(LOG, "failed TLS handshakes", timer);
        protocolErrors = new BurstLog(LOG, "protocol errors", timer);
        notAuthorized = new BurstLog(LOG, "refused requests of unauthorized clients", timer);
        replyStalls = new BurstLog(LOG, "connections closed for not reading their replies", timer);
        acceptFailures = new BurstLog(LOG, "accept failures for want of file descriptors", timer);
        frameLimits = new BurstLog(LOG, "connections closed for partly sent frames", timer);
        allocationFailures = new BurstLog(LOG, "connections closed for want of memory", timer);
    }

    static Logger logger() {
        return LOG;
    }
}
