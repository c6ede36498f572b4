package io.tidemark.bench.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The resident set size of a process, from {@code /proc/<pid>/status} (Linux). */
final class ProcessMemory {

    private ProcessMemory() {
    }

    /** The process's resident set in KiB, or -1 when it cannot be read. */
    static long residentKiB(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // The process ended, or this is not Linux.
        }
        return -1;
    }
}
