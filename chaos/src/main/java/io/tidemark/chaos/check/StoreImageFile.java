package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Saves a {@link StoreImage} next to the histories of a run (so a run can be checked again later without HBase), one
 * line per fact, tab-separated:
 *
 * <pre>
 * V key version value deleted shadowCommit    a stored version ("-": no data cell; deleted 0/1; shadow 0: none)
 * C start commitOrMinusOne                    a commit-table record (-1: invalidated)
 * L lowWatermark
 * </pre>
 */
public final class StoreImageFile {

    /** File name of the image in a run's directory. */
    public static final String NAME = "store.image";

    private StoreImageFile() {
    }

    public static void write(StoreImage image, Path file) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            List<Key> keys = new ArrayList<>();
            image.keys().forEach(keys::add);
            keys.sort(null);
            for (Key key : keys) {
                for (StoredVersion v : image.versionsOf(key).values()) {
                    out.write(String.join("\t", "V", key.toString(), Long.toString(v.version()),
                            v.value() == null ? "-" : v.value(), v.deleted() ? "1" : "0",
                            Long.toString(v.shadowCommit())));
                    out.write('\n');
                }
            }
            for (long start : image.commitRecordStarts()) {
                out.write("C\t" + start + "\t" + image.commitRecord(start) + "\n");
            }
            out.write("L\t" + image.lowWatermark() + "\n");
        }
    }

    public static StoreImage read(Path file) throws IOException {
        StoreImage image = new StoreImage();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "V" -> image.add(Key.parse(f[1]), new StoredVersion(Long.parseLong(f[2]),
                        f[3].equals("-") ? null : f[3], f[4].equals("1"), Long.parseLong(f[5])));
                case "C" -> image.addCommitRecord(Long.parseLong(f[1]), Long.parseLong(f[2]));
                case "L" -> image.lowWatermark(Long.parseLong(f[1]));
                default -> throw new IOException("not a store image line in " + file + ": " + line);
            }
        }
        return image;
    }
}
