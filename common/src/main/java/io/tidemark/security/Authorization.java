package io.tidemark.security;

import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.jspecify.annotations.Nullable;

/** HBase authorization's refusals, as Tidemark recognises them whatever HBase's client wrapped them in. */
public final class Authorization {

    private Authorization() {
    }

    /** The {@link AccessDeniedException} among {@code failure}'s causes, or null when HBase denied nothing. */
    public static @Nullable AccessDeniedException deniedIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AccessDeniedException) {
                return (AccessDeniedException) t;
            }
        }
        return null;
    }
}
