package io.tidemark.tso.processing;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TransactionTimeoutTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong clock = new AtomicLong(1_000 * MS);

    @Test
    void withoutATimeoutNothingExpires() {
        TransactionTimeout none = new TransactionTimeout(0, clock::get);
        none.begun(4096);
        clock.addAndGet(1_000_000 * MS);
        assertEquals(0, none.expiredBound());
    }

    @Test
    void aStartExpiresOnceItsTransactionIsOneTimeoutOld() {
        TransactionTimeout timeout = new TransactionTimeout(1_600, clock::get);
        timeout.begun(4096);
        clock.addAndGet(800 * MS);
        timeout.begun(8192);

        clock.addAndGet(799 * MS);
        assertEquals(0, timeout.expiredBound(), "the first transaction is 1,599 ms old");
        clock.addAndGet(MS);
        assertEquals(4096, timeout.expiredBound());
        clock.addAndGet(800 * MS);
        assertEquals(8192, timeout.expiredBound());
        assertEquals(8192, timeout.expiredBound(), "the bound never falls back");
    }

    /** Starts between two samples expire with the later sample: late by at most a sixteenth of the timeout. */
    @Test
    void startsBetweenSamplesExpireWithTheNextSample() {
        TransactionTimeout timeout = new TransactionTimeout(1_600, clock::get);
        timeout.begun(4096);
        clock.addAndGet(50 * MS);
        timeout.begun(8192);
        clock.addAndGet(50 * MS);
        timeout.begun(12288);

        clock.addAndGet(1_500 * MS);
        assertEquals(4096, timeout.expiredBound(), "8192 began 1,550 ms ago, below the timeout");
        clock.addAndGet(100 * MS);
        assertEquals(12288, timeout.expiredBound());
    }
}
