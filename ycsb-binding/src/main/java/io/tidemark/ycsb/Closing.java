package io.tidemark.ycsb;

import java.io.Closeable;
import java.io.IOException;

/** Closing several tables: every one is closed even when some fail, so no connection resource leaks. */
final class Closing {

    private Closing() {
    }

    /**
     * Closes each of {@code resources}; returns {@code earlier}, or else the first failure, with every later failure
     * added as suppressed (null when nothing failed).
     */
    static IOException closeAll(Iterable<? extends Closeable> resources, IOException earlier) {
        IOException first = earlier;
        for (Closeable resource : resources) {
            try {
                resource.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }
}
