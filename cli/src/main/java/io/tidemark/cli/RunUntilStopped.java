package io.tidemark.cli;

import java.util.concurrent.CompletableFuture;

/** Keeps a long-running command alive until Ctrl-C (or SIGTERM), then stops what it started. */
public final class RunUntilStopped {

    private RunUntilStopped() {
    }

    /** Blocks forever; the JVM's shutdown closes {@code running} and prints that it stopped. */
    public static void await(String what, AutoCloseable running) throws InterruptedException {
        await(what, new CompletableFuture<>(), running);
    }

    /**
     * Blocks until {@code until} completes (the running thing ended by itself), then closes {@code running} and
     * returns; or until the JVM shuts down (Ctrl-C), which closes {@code running} and prints that it stopped.
     */
    public static void await(String what, CompletableFuture<?> until, AutoCloseable running)
            throws InterruptedException {
        Thread hook = new Thread(() -> {
            System.out.println("Stopping " + what + "...");
            closeQuietly(what, running);
            System.out.println("Stopped.");
        }, "tidemark-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            until.get();
        } catch (java.util.concurrent.ExecutionException ended) {
            // Ended all the same.
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            return;
        }
        closeQuietly(what, running);
    }

    private static void closeQuietly(String what, AutoCloseable running) {
        try {
            running.close();
        } catch (Exception e) {
            System.err.println("while stopping " + what + ": " + e.getMessage());
        }
    }
}
