package io.tidemark.bench.attack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The resident set size and CPU time of a process, from {@code /proc/<pid>} (Linux). */
final class ProcessMemory {

    /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

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

    /** The CPU time the process used so far (user and system, all threads), in ms, or -1 when it cannot be read. */
    static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The fields after the command name (which may hold spaces, in parentheses): utime and stime are 14, 15.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1000 / TICKS_PER_SECOND;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
