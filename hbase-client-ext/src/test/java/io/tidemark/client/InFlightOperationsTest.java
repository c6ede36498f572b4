package io.tidemark.client;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InFlightOperationsTest {

    private final InFlightOperations inFlight = new InFlightOperations(() -> "transaction 42");

    @Test
    void operationOnARowWaitsForEarlierWritesToIt() {
        InFlightOperations.Operation write = inFlight.start(List.of("a"), true, "write");
        InFlightOperations.Operation read = inFlight.start(List.of("a", "b"), false, "read");

        assertFalse(read.earlierWrites().isDone(), "the read must wait for the write to row a");
        write.finish(null);
        assertTrue(read.earlierWrites().isDone());
    }

    @Test
    void operationsOnOtherRowsDoNotWait() {
        inFlight.start(List.of("a"), true, "write");

        assertTrue(inFlight.start(List.of("b"), true, "write").earlierWrites().isDone(),
                "a write still running on row a does not hold back row b");
        assertTrue(inFlight.start(List.of("c"), false, "read").earlierWrites().isDone());
    }

    @Test
    void readsDoNotHoldBackLaterOperations() {
        inFlight.start(List.of("a"), false, "read");

        assertTrue(inFlight.start(List.of("a"), true, "write").earlierWrites().isDone());
    }

    @Test
    void secondWriteOfARowWaitsForTheFirst() {
        InFlightOperations.Operation first = inFlight.start(List.of("a"), true, "write");
        InFlightOperations.Operation second = inFlight.start(List.of("a"), true, "write");

        assertFalse(second.earlierWrites().isDone());
        first.finish(new IOException("failed"));
        assertTrue(second.earlierWrites().isDone(), "a failed write releases the row too");
        assertFalse(second.earlierWrites().isCompletedExceptionally(), "only order is waited for");
    }

    @Test
    void endCompletesWhenTheLastOperationFinished() {
        InFlightOperations.Operation write = inFlight.start(List.of("a"), true, "write");
        InFlightOperations.Operation read = inFlight.start(List.of("b"), false, "read");

        CompletableFuture<Void> end = inFlight.end("commit");
        write.finish(null);
        assertFalse(end.isDone(), "the read still runs");
        read.finish(null);
        assertTrue(end.isDone());
        assertEquals(0, inFlight.running());
    }

    @Test
    void endWithNothingInFlightIsImmediate() {
        assertTrue(inFlight.end("commit").isDone());
    }

    @Test
    void endingTwiceGivesTheSameFuture() {
        inFlight.start(List.of("a"), true, "write");

        assertSame(inFlight.end("commit"), inFlight.end("rollback"));
    }

    @Test
    void operationsAfterTheEndAreRefused() {
        inFlight.end("commit");

        TransactionStateException refused = assertThrows(TransactionStateException.class,
                () -> inFlight.start(List.of("a"), true, "write"));
        assertTrue(refused.getMessage().contains("transaction 42"), refused.getMessage());
        assertTrue(refused.getMessage().contains("commit has begun"), refused.getMessage());
    }

    @Test
    void firstFailedWriteIsRemembered() {
        IOException first = new IOException("first");
        inFlight.start(List.of("a"), true, "write").finish(first);
        inFlight.start(List.of("b"), true, "write").finish(new IOException("second"));

        assertSame(first, inFlight.firstWriteFailure());
    }

    @Test
    void failedReadIsNotAWriteFailure() {
        inFlight.start(List.of("a"), false, "read").finish(new IOException("read failed"));

        assertNull(inFlight.firstWriteFailure());
    }

    @Test
    void finishingTwiceIsABug() {
        InFlightOperations.Operation op = inFlight.start(List.of("a"), true, "write");
        op.finish(null);

        assertThrows(IllegalStateException.class, () -> op.finish(null));
    }
}
