package io.tidemark.bench.attack;

import java.time.Duration;

/** One kind of hostile or broken client, run for a bounded time against one TSO address. */
public interface Attack {

    /** A short name for the result table. */
    String name();

    /**
     * Attacks {@code target} until {@code duration} has passed (or the attack has nothing left to do), then releases
     * every connection it holds. Blocks the calling thread.
     */
    void run(Target target, Duration duration) throws InterruptedException;

    /** What the attack saw the TSO do, for the result table (e.g. how many connections it refused). */
    String outcome();
}
