package io.tidemark.cli;

import java.util.concurrent.CountDownLatch;

/** Keeps a long-running command alive until Ctrl-C (or SIGTERM), then stops what it started. */
public final class RunUntilStopped {

    private RunUntilStopped() {
    }

    /** Blocks forever; the JVM's shutdown closes {@code running} and prints that it stopped. */
    public static void await(String what, AutoCloseable running) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping " + what + "...");
            try {
                running.close();
            } catch (Exception e) {
                System.err.println("while stopping " + what + ": " + e.getMessage());
            }
            System.out.println("Stopped.");
        }, "tidemark-shutdown"));
        new CountDownLatch(1).await();
    }
}
