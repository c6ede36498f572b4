package io.tidemark.concurrent;

import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waiting for a future that stands for a call to HBase or the TSO, the way callers of such calls expect a failure:
 * as an {@link IOException}. Whatever the call failed with, its outcome is unknown to the caller, and every caller
 * handles an unknown outcome by catching {@code IOException} (a commit settles it by invalidating the transaction, a
 * heal of a shadow cell is logged and dropped). So an {@code IOException} is rethrown as it is, and anything else the
 * future failed with, a {@link RuntimeException} or an {@link Error} of the code that ran the call included, is
 * wrapped in one: thrown as it is, it would pass those handlers and leave the outcome unsettled.
 */
public final class Futures {

    private Futures() {
    }

    /**
     * The future's value, once it has one.
     *
     * @param call what the future stands for, for messages ("the COMMIT request"): "{@code <call>} failed"
     * @throws InterruptedIOException when interrupted while waiting (the thread's interrupt flag is set again)
     * @throws IOException the call's own {@code IOException}, or one whose cause is what else it failed with
     */
    public static <T> T await(Future<T> future, String call) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while waiting for " + call).initCause(e);
        } catch (ExecutionException e) {
            throw failureOf(e, call);
        }
    }

    /** What {@link #await} throws for a future that failed with {@code failed}'s cause. */
    public static IOException failureOf(ExecutionException failed, String call) {
        return failureOf(failed.getCause(), call);
    }

    /**
     * What {@link #await} throws for a call that failed with {@code cause}, for the same call made on the caller's own
     * thread: it then fails the same way as when it is waited for.
     */
    public static IOException failureOf(@Nullable Throwable cause, String call) {
        if (cause instanceof IOException) {
            return (IOException) cause;
        }
        return new IOException(call + " failed", cause);
    }
}
