package io.tidemark.chaos.history;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Appends one client's history to its file. Every line reaches the operating system before the call returns, so a
 * client killed with {@code kill -9} leaves every event it recorded (a write is recorded before it is sent). One per
 * client thread.
 */
public final class HistoryLog implements Closeable {

    private final String client;
    private final BufferedWriter out;

    public HistoryLog(Path file, String client) throws IOException {
        this.client = client;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    public String client() {
        return client;
    }

    /**
     * Starts recording a generic transaction that began at {@code start}; call it as soon as BEGIN returned.
     *
     * @param beginAsked when BEGIN was asked for ({@link Timing#nowMicros()} just before)
     */
    public Recorder generic(long seq, long start, long beginAsked) {
        emit(HistoryLines.generic(client, seq, start, beginAsked, Timing.nowMicros()));
        return new Recorder(seq);
    }

    /**
     * Starts recording a generic transaction begun lazily ({@code tidemark.client.lazy-begin}): its start is not known
     * until {@link Recorder#began}, nor when it was asked for.
     */
    public Recorder lazyGeneric(long seq) {
        emit(HistoryLines.generic(client, seq, 0, 0, 0));
        return new Recorder(seq);
    }

    /** Starts recording a fast-path operation. */
    public Recorder fastPath(long seq, String operation) {
        emit(HistoryLines.fastPath(client, seq, operation));
        return new Recorder(seq);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private void emit(String line) {
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the history of " + client, e);
        }
    }

    /** Records the events of one transaction. */
    public final class Recorder {

        private final long seq;

        private Recorder(long seq) {
            this.seq = seq;
        }

        public void read(Key key, String value) {
            emit(HistoryLines.read(client, seq, key, value));
        }

        public void write(Key key, String value) {
            emit(HistoryLines.write(client, seq, key, value));
        }

        public void scan(String fromRow, String toRow, Map<Key, String> seen) {
            emit(HistoryLines.scan(client, seq, fromRow, toRow, seen));
        }

        /** The client is about to ask for the commit: a kill from now on is a kill mid-commit. */
        public void committing() {
            emit(HistoryLines.committing(client, seq, Timing.nowMicros()));
        }

        /** A transaction begun lazily learned its start timestamp. */
        public void began(long start) {
            emit(HistoryLines.began(client, seq, start));
        }

        public void readAt(long version) {
            emit(HistoryLines.readAt(client, seq, version));
        }

        public void told(Told told) {
            emit(HistoryLines.told(client, seq, told, Timing.nowMicros()));
        }
    }
}
