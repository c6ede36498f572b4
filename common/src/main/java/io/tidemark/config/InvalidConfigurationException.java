package io.tidemark.config;

/** A configuration value is missing, malformed or out of range; the message names the key and what it accepts. */
public final class InvalidConfigurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidConfigurationException(String key, String value, String expected) {
        super("invalid value '" + value + "' for " + key + ": expected " + expected);
    }

    public InvalidConfigurationException(Setting<?> setting, String value, String expected) {
        this(setting.key(), value, expected);
    }
}
