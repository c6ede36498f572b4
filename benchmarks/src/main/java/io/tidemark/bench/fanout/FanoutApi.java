package io.tidemark.bench.fanout;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The API a fan-out run issues its operations through: one series each. */
public enum FanoutApi {
    /** {@code AsyncTTable}: each operation a blocking call on an executor thread, the executor sized to the fan-out. */
    EXECUTOR("executor"),
    /** {@code AsyncTransactionalTable}: each operation a chain of futures, no thread per operation in flight. */
    NON_BLOCKING("non-blocking");

    private final String label;

    FanoutApi(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The API of that label; a clear error naming the known ones otherwise. */
    public static FanoutApi of(String label) {
        for (FanoutApi api : values()) {
            if (api.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
                return api;
            }
        }
        throw new IllegalArgumentException("unknown API '" + label + "'; known: "
                + Arrays.stream(values()).map(FanoutApi::label).collect(Collectors.joining(", ")));
    }
}
