package io.tidemark.bench.omid;

import org.apache.omid.timestamp.storage.HBaseTimestampStorage;
import org.apache.omid.timestamp.storage.TimestampStorage;

import java.io.IOException;

/**
 * Omid's HBase timestamp storage, until {@link #stop()}. Omid's world-clock timestamp oracle extends its timestamp
 * range every 7 s on a thread that stopping the TSO does not end, and exits the JVM when a write fails (its
 * SystemExitPanicker): once the benchmark has stopped the TSO, those writes are dropped here instead, and the
 * storage's HBase connection is closed.
 */
final class StoppableTimestampStorage implements TimestampStorage {

    private final HBaseTimestampStorage storage;
    private boolean stopped;

    StoppableTimestampStorage(HBaseTimestampStorage storage) {
        this.storage = storage;
    }

    @Override
    public synchronized void updateMaxTimestamp(long previousMaxTimestamp, long newMaxTimestamp) throws IOException {
        if (!stopped) {
            storage.updateMaxTimestamp(previousMaxTimestamp, newMaxTimestamp);
        }
    }

    @Override
    public synchronized long getMaxTimestamp() throws IOException {
        if (stopped) {
            throw new IOException("Omid's timestamp storage was stopped with its TSO");
        }
        return storage.getMaxTimestamp();
    }

    /** Drops every later write, once the one under way (if any) has finished, and closes the storage. */
    synchronized void stop() throws IOException {
        stopped = true;
        storage.close();
    }
}
