package io.tidemark.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Writes a benchmark's results into its output folder: {@code results.csv} and {@code summary.md}. */
public final class ReportWriter {

    public static final String CSV_FILE = "results.csv";
    public static final String SUMMARY_FILE = "summary.md";
    /** The results.csv column that names the storage (local, hdfs, external, none). */
    public static final String STORAGE_COLUMN = "storage";

    private static final DateTimeFormatter FOLDER_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ReportWriter() {
    }

    /**
     * A benchmark's output folder: {@code chosen} (its {@code --output}), or when none was chosen the default,
     * {@code bench-results/<name>-<timestamp>}.
     */
    public static Path outputFolder(Path chosen, String benchmarkName) {
        if (chosen != null) {
            return chosen;
        }
        return Path.of("bench-results", benchmarkName + "-" + LocalDateTime.now().format(FOLDER_STAMP));
    }

    /**
     * Writes both files and returns the folder. {@code notes} is Markdown placed under the table. Both files say which
     * storage the HBase ran on: the CSV in a last column, {@code storage}, the summary in a line under the title.
     */
    public static Path write(Path folder, String title, ResultTable table, String notes, RunStorage storage)
            throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve(CSV_FILE), table.withColumn(STORAGE_COLUMN, storage.label()).toCsv(),
                StandardCharsets.UTF_8);
        String summary = "# " + title + "\n\n" + "Storage: **" + storage.label() + "**, " + storage.description()
                + ".\n\n" + table.toMarkdown() + "\n" + notes + (notes.endsWith("\n") ? "" : "\n");
        Files.writeString(folder.resolve(SUMMARY_FILE), summary, StandardCharsets.UTF_8);
        return folder;
    }

    /** Markdown that shows the picture {@code file} (in the same folder as the summary). */
    public static String image(String alt, String file) {
        return "![" + alt + "](" + file + ")\n\n";
    }

    /** A line describing the machine the numbers come from, including how busy it was. */
    public static String environment() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java "
                + System.getProperty("java.version") + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB, " + System.getProperty("os.name")
                + (load < 0 ? "" : String.format(Locale.ROOT, ", load average %.2f at the end of the run", load))
                + ".";
    }
}
