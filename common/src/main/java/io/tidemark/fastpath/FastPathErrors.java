package io.tidemark.fastpath;

import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.ipc.RemoteException;
import org.jspecify.annotations.Nullable;

/**
 * Finds a fast-path exception thrown by the coprocessor inside what the HBase client throws: the exception itself,
 * a cause, one of the per-action causes of a batch, or a {@link RemoteException} naming its class.
 */
public final class FastPathErrors {

    private FastPathErrors() {
    }

    /** The exception of type {@code type} behind {@code thrown}, or null when there is none. */
    public static <T extends Exception> @Nullable T find(Throwable thrown, Class<T> type) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t instanceof RemoteException && type.getName().equals(((RemoteException) t).getClassName())) {
                return remote(type, ((RemoteException) t).getMessage());
            }
            if (t instanceof RetriesExhaustedWithDetailsException) {
                for (Throwable c : ((RetriesExhaustedWithDetailsException) t).getCauses()) {
                    T found = find(c, type);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        return null;
    }

    private static <T extends Exception> T remote(Class<T> type, @Nullable String message) {
        try {
            return type.getConstructor(String.class).newInstance(message);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getName() + " needs a public (String) constructor", e);
        }
    }
}
