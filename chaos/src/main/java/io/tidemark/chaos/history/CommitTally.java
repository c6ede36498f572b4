package io.tidemark.chaos.history;

import io.tidemark.timestamp.Timestamps;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Counts, while a run goes on, what its clients (threads and child JVMs alike) were told committed, by kind, from the
 * history files they write: each call reads the lines added since the last one.
 */
public final class CommitTally {

    /** What committed. */
    public enum Kind {
        /** A generic transaction committed through the TSO. */
        GENERIC("generic transactions committed through the TSO"),
        /** A generic transaction committed with one request to its region. */
        SINGLE_REGION("single-region commits"),
        /** A fast-path write. */
        FAST_PATH("fast-path writes");

        private final String description;

        Kind(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    private final Path directory;
    private final Map<Path, FileState> files = new HashMap<>();
    private final Map<Kind, Integer> counts = new EnumMap<>(Kind.class);

    public CommitTally(Path directory) {
        this.directory = directory;
        for (Kind k : Kind.values()) {
            counts.put(k, 0);
        }
    }

    /** Reads what was added to the history files since the last call; returns the counts so far. */
    public synchronized Map<Kind, Integer> update() throws IOException {
        List<Path> histories;
        try (Stream<Path> list = Files.list(directory)) {
            histories = list.filter(p -> p.getFileName().toString().endsWith(HistoryFiles.SUFFIX)).toList();
        }
        for (Path file : histories) {
            files.computeIfAbsent(file, f -> new FileState()).readFrom(file);
        }
        return new EnumMap<>(counts);
    }

    /** How far one history file was read, and whether its open transaction is a fast-path operation. */
    private final class FileState {
        private long offset;
        private boolean fastPath;

        void readFrom(Path file) throws IOException {
            byte[] added;
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long length = in.length();
                if (length <= offset) {
                    return;
                }
                added = new byte[(int) (length - offset)];
                in.seek(offset);
                in.readFully(added);
            }
            String text = new String(added, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            if (end < 0) {
                return;
            }
            // A line is written whole but may be read half: the rest of it is read next time.
            offset += text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
            for (String line : text.substring(0, end).split("\n")) {
                count(line);
            }
        }

        private void count(String line) {
            if (HistoryLines.beginsFastPath(line) || HistoryLines.beginsGeneric(line)) {
                fastPath = HistoryLines.beginsFastPath(line);
                return;
            }
            long committedAt = HistoryLines.committedAt(line);
            if (committedAt < 0) {
                return;
            }
            Kind kind = fastPath ? Kind.FAST_PATH
                    : Timestamps.isFastPathVersion(committedAt) ? Kind.SINGLE_REGION : Kind.GENERIC;
            counts.merge(kind, 1, Integer::sum);
        }
    }
}
