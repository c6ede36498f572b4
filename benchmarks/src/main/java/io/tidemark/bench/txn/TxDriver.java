package io.tidemark.bench.txn;

import java.io.Closeable;
import java.io.IOException;

/**
 * Runs benchmark transactions in one {@link TxMode} on its own freshly created and preloaded table. Closing drops the
 * table and stops what the driver started.
 */
public interface TxDriver extends Closeable {

    TxMode mode();

    /** Writes every key once with a value of the configured size. */
    void preload() throws IOException;

    /** Operations for one client thread. */
    Session session() throws IOException;

    /** One client thread's handle. */
    interface Session extends Closeable {

        /**
         * Runs {@code ops} as one transaction (begin, the operations in order, commit) with {@code value} as the
         * payload of every update. An abort is an outcome, not an exception.
         */
        TxOutcome run(Operation[] ops, byte[] value) throws IOException;
    }
}
