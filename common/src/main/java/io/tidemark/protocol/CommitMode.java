package io.tidemark.protocol;

import io.tidemark.config.Choices;

/** Who makes a commit durable; the TSO announces its mode in the HELLO reply. */
public enum CommitMode {
    /** The TSO answers COMMIT after conflict detection; the client writes its own commit record. */
    LOW_LATENCY(0, "low-latency"),
    /** The TSO writes commit records in batches and answers once they are durable. */
    BATCHED(1, "batched");

    private final byte code;
    private final String configName;

    CommitMode(int code, String configName) {
        this.code = (byte) code;
        this.configName = configName;
    }

    public byte code() {
        return code;
    }

    /** The value used for this mode in configuration ({@code tidemark.tso.commit-mode}). */
    public String configName() {
        return configName;
    }

    public static CommitMode fromCode(byte code) {
        return WireCodes.decode(values(), CommitMode::code, code, "commit mode");
    }

    /** @throws IllegalArgumentException naming the accepted names */
    public static CommitMode fromConfigName(String name) {
        return Choices.parse(values(), CommitMode::configName, name, "commit mode");
    }
}
