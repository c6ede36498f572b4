package io.tidemark.config;

import org.apache.hadoop.conf.Configuration;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * One {@code tidemark.*} configuration key, declared once in {@link TidemarkConfig}: its name, the values it accepts
 * ({@link SettingType}), its default, its section of the docs and what it means. Everything else is derived from the
 * declaration: {@link TidemarkConfig#get} validates a value with it, the command line shows its default in option
 * help, and the settings tables of docs/configuration.md are generated from it (module {@code dist},
 * {@code SettingsReferenceTest}, which fails when the page drifts from the declarations; {@code SiteTemplateTest}
 * does the same for the keys and defaults of the release tarball's {@code conf/tidemark-site.xml}).
 *
 * <p>{@link #toString()} is the key, so messages can name a setting by concatenation.
 *
 * @param <T> the type of its value
 */
public final class Setting<T> {

    /** A group of settings: a section of docs/configuration.md and of the conf template, in this order. */
    public enum Section {
        TSO("TSO server"),
        TLS("TLS on the TSO port"),
        KERBEROS("Kerberos (TSO, sweeper, table command)"),
        TABLES("Tables (TSO, clients and tools must agree)"),
        CLIENT("Client"),
        ADMINISTRATION("Table administration and the commit-table sweeper"),
        /** {@code TidemarkAdmin} copies the settings of this section into the observer of a fast-path table. */
        FAST_PATH("Fast path (region servers)");

        private final String title;

        Section(String title) {
            this.title = title;
        }

        /** The section's heading in docs/configuration.md. */
        public String title() {
            return title;
        }
    }

    private final String key;
    private final SettingType<T> type;
    private final @Nullable T defaultValue;
    private final @Nullable String defaultShownAs;
    private final Section section;
    private final String description;

    private Setting(Builder<T> builder, String description) {
        this.key = builder.key;
        this.type = builder.type;
        this.defaultValue = builder.defaultValue;
        this.defaultShownAs = builder.defaultShownAs;
        this.section = Objects.requireNonNull(builder.section, "section of " + builder.key);
        this.description = description;
    }

    /**
     * Starts the declaration of a setting.
     *
     * @param defaultValue its value when unset; null when unset means "none" (the reader then decides)
     */
    public static <T> Builder<T> of(String key, SettingType<T> type, @Nullable T defaultValue) {
        return new Builder<>(key, type, defaultValue);
    }

    public String key() {
        return key;
    }

    public SettingType<T> type() {
        return type;
    }

    /** The value when the key is unset, or null when there is none. */
    public @Nullable T defaultValue() {
        return defaultValue;
    }

    /**
     * The default of a setting declared with one.
     *
     * @throws IllegalStateException when the setting has no default
     */
    public T requiredDefault() {
        if (defaultValue == null) {
            throw new IllegalStateException(key + " has no default");
        }
        return defaultValue;
    }

    public Section section() {
        return section;
    }

    /** What the setting does, in Markdown (links relative to docs/). */
    public String description() {
        return description;
    }

    /** The default as docs/configuration.md shows it (Markdown). */
    public String defaultText() {
        if (defaultShownAs != null) {
            return defaultShownAs;
        }
        if (defaultValue == null) {
            return "unset";
        }
        String shown = type.format(defaultValue);
        if (shown.isEmpty()) {
            return "empty";
        }
        String note = type.note(defaultValue);
        return "`" + shown + "`" + (note.isEmpty() ? "" : " (" + note + ")");
    }

    /** The default as a site file would write it: empty when there is none. */
    public String defaultInSiteFile() {
        return defaultValue == null ? "" : type.format(defaultValue);
    }

    /**
     * The value {@code text} stands for: the default when it is blank and the type takes blank for unset.
     *
     * @throws InvalidConfigurationException naming the key, the text and what is accepted
     */
    // A setting declared without a default (null) reads as null when unset or blank; T cannot say which settings
    // those are, so their readers check for null (or read them with TidemarkConfig.getIfSet).
    @SuppressWarnings("NullAway")
    public T parse(String text) {
        String trimmed = text.trim();
        if (trimmed.isEmpty() && (type.blankIsUnset() || defaultValue == null)) {
            return defaultValue;
        }
        try {
            return type.parse(trimmed);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(key, trimmed, type.accepted());
        }
    }

    /** Whether {@code text} is a value of this setting (for checks of the same value given another way). */
    public boolean accepts(String text) {
        try {
            parse(text);
            return true;
        } catch (InvalidConfigurationException e) {
            return false;
        }
    }

    /** The value {@code conf} gives the key, or the default. */
    @SuppressWarnings("NullAway") // the default of a setting without one is null, as in parse
    T valueIn(Configuration conf) {
        String raw = conf.get(key);
        return raw == null ? defaultValue : parse(raw);
    }

    /** Whether {@code conf} gives the key a value that is not blank. */
    boolean isSetIn(Configuration conf) {
        String raw = conf.get(key);
        return raw != null && !raw.trim().isEmpty();
    }

    @Override
    public String toString() {
        return key;
    }

    /** The parts of a declaration before its description, which ends it. */
    public static final class Builder<T> {

        private final String key;
        private final SettingType<T> type;
        private final @Nullable T defaultValue;
        private @Nullable String defaultShownAs;
        private @Nullable Section section;

        private Builder(String key, SettingType<T> type, @Nullable T defaultValue) {
            if (!key.startsWith("tidemark.")) {
                throw new IllegalArgumentException("not a tidemark.* key: " + key);
            }
            this.key = key;
            this.type = Objects.requireNonNull(type, "type");
            this.defaultValue = defaultValue;
        }

        public Builder<T> in(Section of) {
            this.section = of;
            return this;
        }

        /** How docs show the default when its value alone would mislead (a default that depends on the cluster). */
        public Builder<T> defaultShownAs(String markdown) {
            this.defaultShownAs = markdown;
            return this;
        }

        /** Ends the declaration with what the setting means, in Markdown (links relative to docs/). */
        public Setting<T> description(String markdown) {
            return new Setting<>(this, markdown);
        }
    }
}
