package io.tidemark.writeset;

import io.tidemark.config.Choices;
import io.tidemark.protocol.WireCodes;

/**
 * What two transactions must both write to conflict: the same cell, or merely the same row. A cluster-wide fact:
 * the TSO stores it with the timestamp table and announces it in its HELLO reply, because a client sending row ids
 * and one sending cell ids for the same cell would never be found in conflict.
 */
public enum ConflictLevel {
    /** Writes to different columns of one row do not conflict. */
    CELL(0, "cell"),
    /** Any two writes to the same row conflict (fewer ids to send, coarser detection). */
    ROW(1, "row");

    private final byte code;
    private final String configName;

    ConflictLevel(int code, String configName) {
        this.code = (byte) code;
        this.configName = configName;
    }

    /** The level's code in the HELLO reply. */
    public byte code() {
        return code;
    }

    /** The value used for this level in configuration ({@code tidemark.tso.conflict-level}). */
    public String configName() {
        return configName;
    }

    public static ConflictLevel fromCode(byte code) {
        return WireCodes.decode(values(), ConflictLevel::code, code, "conflict level");
    }

    /** @throws IllegalArgumentException naming the accepted names */
    public static ConflictLevel fromConfigName(String name) {
        return Choices.parse(values(), ConflictLevel::configName, name, "conflict level");
    }
}
