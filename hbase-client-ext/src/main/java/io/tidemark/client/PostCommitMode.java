package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;

/** When the shadow cells of a committed transaction are written. */
public enum PostCommitMode {
    /** Before {@code commit} returns: later readers find the shadow cells and skip the commit table. */
    SYNC("sync"),
    /** On a background thread after {@code commit} returns: lower commit latency, more commit-table lookups. */
    ASYNC("async");

    private final String configName;

    PostCommitMode(String configName) {
        this.configName = configName;
    }

    /** The value used for this mode in {@code tidemark.client.post-commit}. */
    public String configName() {
        return configName;
    }

    /** The mode configured in {@code tidemark.client.post-commit}. */
    public static PostCommitMode fromConfig(TidemarkConfig config) {
        return config.get(TidemarkConfig.CLIENT_POST_COMMIT).equals(ASYNC.configName) ? ASYNC : SYNC;
    }
}
