package io.tidemark.dist;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** Reads the entries of a .tar.gz (ustar, with PAX and GNU long names): enough to check what a tarball holds. */
final class TarGz {

    private static final int BLOCK = 512;
    /** Contents are kept for files up to this size (scripts and configuration, not jars). */
    private static final long KEEP_CONTENT_BELOW = 256 * 1024;

    /** One entry: its path, permission bits, whether it is a directory, its size and (small files) its content. */
    record Entry(String name, int mode, boolean directory, long size, byte[] content) {

        String text() {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    private TarGz() {
    }

    static List<Entry> read(Path tarball) throws IOException {
        List<Entry> entries = new ArrayList<>();
        try (InputStream file = Files.newInputStream(tarball);
             DataInputStream in = new DataInputStream(new GZIPInputStream(file))) {
            byte[] header = new byte[BLOCK];
            String longName = null;
            while (true) {
                try {
                    in.readFully(header);
                } catch (EOFException end) {
                    break;
                }
                if (isZeros(header)) {
                    break;
                }
                String name = string(header, 0, 100);
                int mode = (int) octal(header, 100, 8);
                long size = octal(header, 124, 12);
                char type = (char) header[156];
                String prefix = string(header, 345, 155);
                byte[] data = readData(in, size, type == 'x' || type == 'L' || size < KEEP_CONTENT_BELOW);
                if (type == 'x') { // PAX extended header: "<length> path=<name>\n" records
                    for (String record : new String(data, StandardCharsets.UTF_8).split("\n")) {
                        int equals = record.indexOf(" path=");
                        if (equals >= 0) {
                            longName = record.substring(equals + " path=".length());
                        }
                    }
                    continue;
                }
                if (type == 'L') { // GNU long name: the next entry's name
                    longName = new String(data, StandardCharsets.UTF_8).replace("\0", "");
                    continue;
                }
                if (type == 'g') {
                    continue;
                }
                String path = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                longName = null;
                entries.add(new Entry(path, mode, type == '5', size, data));
            }
        }
        return entries;
    }

    private static byte[] readData(DataInputStream in, long size, boolean keep) throws IOException {
        long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
        ByteArrayOutputStream kept = new ByteArrayOutputStream();
        byte[] block = new byte[BLOCK];
        for (long read = 0; read < padded; read += BLOCK) {
            in.readFully(block);
            if (keep) {
                kept.write(block, 0, (int) Math.min(BLOCK, size - read));
            }
        }
        return kept.toByteArray();
    }

    private static boolean isZeros(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String string(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] header, int offset, int length) {
        String digits = string(header, offset, length).trim();
        return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
    }
}
