package io.tidemark.chaos.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Merges the history files of every client (threads and child JVMs) of one run. */
public final class HistoryFiles {

    /** File name suffix of a client's history. */
    public static final String SUFFIX = ".history";

    private HistoryFiles() {
    }

    public static Path fileOf(Path directory, String client) {
        return directory.resolve(client + SUFFIX);
    }

    /**
     * Every transaction recorded under {@code directory}. A last line without its line break is the write a killed
     * client did not finish; it is ignored.
     */
    public static List<Txn> read(Path directory) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(directory)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            String content = Files.readString(file, StandardCharsets.UTF_8);
            int end = content.lastIndexOf('\n');
            if (end < 0) {
                continue;
            }
            for (String line : content.substring(0, end).split("\n")) {
                lines.add(line);
            }
        }
        return HistoryLines.parse(lines);
    }
}
