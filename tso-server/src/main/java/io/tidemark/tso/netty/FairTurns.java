package io.tidemark.tso.netty;

import io.netty.util.concurrent.EventExecutor;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Round-robin turns on the event loop for connections with more requests than one turn may take
 * ({@link RequestFlow#TURN_IDS}): each waiting connection takes one turn per round, and between two rounds the event
 * loop reads its sockets, so a connection that sends little (a BEGIN now and then) waits at most one round behind
 * connections that flood, instead of behind everything they sent. A round is run as a task scheduled with no delay,
 * which the event loop starts only after its next look at the sockets. Event-loop confined; one per event loop.
 */
public final class FairTurns {

    private final EventExecutor loop;
    private final ArrayDeque<RequestFlow> waiting = new ArrayDeque<>();
    private boolean roundScheduled;

    public FairTurns(EventExecutor loop) {
        this.loop = loop;
    }

    /** {@code flow} takes its next turn in the next round. */
    void waitForTurn(RequestFlow flow) {
        waiting.add(flow);
        if (!roundScheduled) {
            roundScheduled = true;
            loop.schedule(this::round, 0, TimeUnit.NANOSECONDS);
        }
    }

    private void round() {
        roundScheduled = false;
        // Connections with work left wait again, for the next round.
        for (int turns = waiting.size(); turns > 0; turns--) {
            waiting.poll().takeTurn();
        }
    }
}
