package io.tidemark.concurrent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a failed or interrupted wait for a call reaches its caller: always as an IOException. */
@Timeout(10)
class FuturesTest {

    @Test
    void theValueOfACompletedCallIsReturned() throws IOException {
        assertEquals("done", Futures.await(CompletableFuture.completedFuture("done"), "the call"));
    }

    @Test
    void theCallsOwnIOExceptionIsRethrownAsItIs() {
        IOException refused = new IOException("refused");
        assertSame(refused, assertThrows(IOException.class,
                () -> Futures.await(CompletableFuture.failedFuture(refused), "the call")));
    }

    @Test
    void aRuntimeFailureOfTheCallIsAnIOExceptionNamingTheCall() {
        IllegalStateException bug = new IllegalStateException("bug");
        IOException thrown = assertThrows(IOException.class,
                () -> Futures.await(CompletableFuture.failedFuture(bug), "the COMMIT request"));
        assertEquals("the COMMIT request failed", thrown.getMessage());
        assertSame(bug, thrown.getCause());
    }

    @Test
    void anErrorOfTheCallIsAnIOExceptionToo() {
        AssertionError error = new AssertionError("broken");
        assertSame(error, assertThrows(IOException.class,
                () -> Futures.await(CompletableFuture.failedFuture(error), "the call")).getCause());
    }

    @Test
    void anInterruptedWaitIsAnInterruptedIOExceptionAndKeepsTheInterrupt() {
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedIOException.class, () -> Futures.await(new CompletableFuture<>(), "the call"));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }
}
