package io.tidemark.chaos.run;

import io.tidemark.processcluster.MemberProcess;

/**
 * The resident memory of this JVM and every process it started (servers, TSOs, client JVMs), read every
 * {@value #INTERVAL_MILLIS} ms while a suite runs; {@link #peakKb()} is the most it saw at once.
 */
final class ResidentMemory implements AutoCloseable {

    private static final long INTERVAL_MILLIS = 2000;

    private final Thread thread;
    private volatile long peakKb;
    private volatile boolean stopped;

    private ResidentMemory() {
        thread = new Thread(this::run, "chaos-resident-memory");
        thread.setDaemon(true);
    }

    static ResidentMemory sample() {
        ResidentMemory memory = new ResidentMemory();
        memory.thread.start();
        return memory;
    }

    long peakKb() {
        return peakKb;
    }

    private void run() {
        while (!stopped) {
            long total = MemberProcess.residentKb(ProcessHandle.current().pid());
            total += ProcessHandle.current().descendants().mapToLong(p -> MemberProcess.residentKb(p.pid())).sum();
            peakKb = Math.max(peakKb, total);
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
