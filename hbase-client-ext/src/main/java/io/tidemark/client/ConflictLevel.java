package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;

/** What two transactions must both write to conflict: the same cell, or merely the same row. */
public enum ConflictLevel {
    /** Writes to different columns of one row do not conflict. */
    CELL("cell"),
    /** Any two writes to the same row conflict (fewer ids to send, coarser detection). */
    ROW("row");

    private final String configName;

    ConflictLevel(String configName) {
        this.configName = configName;
    }

    /** The value used for this level in {@code tidemark.client.conflict-level}. */
    public String configName() {
        return configName;
    }

    /** The level configured in {@code tidemark.client.conflict-level}. */
    public static ConflictLevel fromConfig(TidemarkConfig config) {
        String name = config.getChoice(TidemarkConfig.CLIENT_CONFLICT_LEVEL,
                TidemarkConfig.CLIENT_CONFLICT_LEVEL_DEFAULT, CELL.configName, ROW.configName);
        return name.equals(ROW.configName) ? ROW : CELL;
    }
}
