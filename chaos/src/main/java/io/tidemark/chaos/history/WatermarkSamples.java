package io.tidemark.chaos.history;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The low watermark persisted in the commit table, as a run read it again and again while it ran: one line per
 * read, {@code <microseconds since 1970> <watermark>}, in {@value #FILE} in the run's folder.
 */
public final class WatermarkSamples implements Closeable {

    public static final String FILE = "low-watermark.samples";

    /** One read: when, and what the commit table held. */
    public record Sample(long micros, long lowWatermark) {
    }

    private final BufferedWriter out;

    private WatermarkSamples(BufferedWriter out) {
        this.out = out;
    }

    /** A new sample file in {@code directory} (an earlier one is replaced). */
    public static WatermarkSamples create(Path directory) throws IOException {
        return new WatermarkSamples(Files.newBufferedWriter(directory.resolve(FILE), StandardCharsets.UTF_8));
    }

    public synchronized void add(Sample sample) throws IOException {
        out.write(sample.micros() + " " + sample.lowWatermark());
        out.newLine();
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /** The samples in {@code directory}, in the order they were read; none when there is no file. */
    public static List<Sample> read(Path directory) throws IOException {
        Path file = directory.resolve(FILE);
        List<Sample> samples = new ArrayList<>();
        if (!Files.exists(file)) {
            return samples;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split(" ");
            if (f.length == 2) {
                samples.add(new Sample(Long.parseLong(f[0]), Long.parseLong(f[1])));
            }
        }
        return samples;
    }
}
