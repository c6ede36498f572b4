package io.tidemark.tso.monitoring;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * A TSO's state as an operator sees it: the body of {@code GET /health} (one flat JSON object, whose field names are
 * defined here only and listed in docs/monitoring.md) and what {@code ./tidemark status} prints. Unknown fields are
 * ignored when reading, so later versions may add some.
 */
public final class TsoStatus {

    static final String ROLE = "role";
    static final String VERSION = "version";
    static final String ADDRESS = "address";
    static final String HTTP_ADDRESS = "httpAddress";
    static final String EPOCH = "epoch";
    static final String COMMIT_MODE = "commitMode";
    static final String CONFLICT_LEVEL = "conflictLevel";
    static final String UPTIME_MS = "uptimeMs";
    static final String LOW_WATERMARK = "lowWatermark";
    static final String CONFLICT_MAP_FILL = "conflictMapFill";
    static final String CONNECTIONS = "connections";
    static final String LEASE_REMAINING_MS = "leaseRemainingMs";
    static final String ACTIVE_TSO = "activeTso";
    static final String LAST_ERROR = "lastError";
    static final String LAST_ERROR_AGE_MS = "lastErrorAgeMs";
    static final String STOP_REASON = "stopReason";

    private static final JsonFactory JSON = new JsonFactory();

    private final TsoRole role;
    private final @Nullable String version;
    private final @Nullable String address;
    private final @Nullable String httpAddress;
    private final long epoch;
    private final @Nullable String commitMode;
    private final @Nullable String conflictLevel;
    private final long uptimeMs;
    private final long lowWatermark;
    private final double conflictMapFill;
    private final long connections;
    private final long leaseRemainingMs;
    private final @Nullable String activeTso;
    private final @Nullable String lastError;
    private final long lastErrorAgeMs;
    private final @Nullable String stopReason;

    private TsoStatus(Builder b) {
        this.role = Objects.requireNonNull(b.role, "role");
        this.version = b.version;
        this.address = b.address;
        this.httpAddress = b.httpAddress;
        this.epoch = b.epoch;
        this.commitMode = b.commitMode;
        this.conflictLevel = b.conflictLevel;
        this.uptimeMs = b.uptimeMs;
        this.lowWatermark = b.lowWatermark;
        this.conflictMapFill = b.conflictMapFill;
        this.connections = b.connections;
        this.leaseRemainingMs = b.leaseRemainingMs;
        this.activeTso = b.activeTso;
        this.lastError = b.lastError;
        this.lastErrorAgeMs = b.lastErrorAgeMs;
        this.stopReason = b.stopReason;
    }

    public static Builder builder(TsoRole role) {
        return new Builder(role);
    }

    public TsoRole role() {
        return role;
    }

    /** Whether the TSO serves, or stands by ready to take over. */
    public boolean healthy() {
        return role.healthy();
    }

    /** The Tidemark version the TSO runs, or null when unknown. */
    public @Nullable String version() {
        return version;
    }

    /** Where clients reach the TSO ({@code host:port}), or null when unknown. */
    public @Nullable String address() {
        return address;
    }

    /** Where its HTTP endpoint listens, or null when it has none. */
    public @Nullable String httpAddress() {
        return httpAddress;
    }

    /** The epoch it serves with; 0 unless active. */
    public long epoch() {
        return epoch;
    }

    /** The cluster's commit mode it serves with ({@code low-latency} or {@code batched}), or null unless active. */
    public @Nullable String commitMode() {
        return commitMode;
    }

    /** The cluster's conflict level it serves with ({@code cell} or {@code row}), or null unless active. */
    public @Nullable String conflictLevel() {
        return conflictLevel;
    }

    /** Milliseconds since the TSO process started competing for the lease. */
    public long uptimeMs() {
        return uptimeMs;
    }

    /** The low watermark (start timestamps at or below it abort); 0 unless active. */
    public long lowWatermark() {
        return lowWatermark;
    }

    /** Share of the conflict map's entries in use, 0 to 1; once 1, every new entry evicts one. 0 unless active. */
    public double conflictMapFill() {
        return conflictMapFill;
    }

    /** Open client connections. */
    public long connections() {
        return connections;
    }

    /** How long the lease stays valid without a further renewal; -1 unless active. */
    public long leaseRemainingMs() {
        return leaseRemainingMs;
    }

    /** For a standby: the active TSO as last seen in the lease, or null. */
    public @Nullable String activeTso() {
        return activeTso;
    }

    /** The last error the TSO itself met (not a client's bad request), or null when none. */
    public @Nullable String lastError() {
        return lastError;
    }

    /** How long ago {@link #lastError()} happened; -1 when there was none. */
    public long lastErrorAgeMs() {
        return lastErrorAgeMs;
    }

    /** For a stopped TSO: why it stopped, or null. */
    public @Nullable String stopReason() {
        return stopReason;
    }

    /** The /health body. */
    public String toJson() {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = JSON.createGenerator(text)) {
            json.writeStartObject();
            json.writeStringField(ROLE, role.label());
            writeOptional(json, VERSION, version);
            writeOptional(json, ADDRESS, address);
            writeOptional(json, HTTP_ADDRESS, httpAddress);
            json.writeNumberField(EPOCH, epoch);
            writeOptional(json, COMMIT_MODE, commitMode);
            writeOptional(json, CONFLICT_LEVEL, conflictLevel);
            json.writeNumberField(UPTIME_MS, uptimeMs);
            json.writeNumberField(LOW_WATERMARK, lowWatermark);
            json.writeNumberField(CONFLICT_MAP_FILL, conflictMapFill);
            json.writeNumberField(CONNECTIONS, connections);
            json.writeNumberField(LEASE_REMAINING_MS, leaseRemainingMs);
            writeOptional(json, ACTIVE_TSO, activeTso);
            writeOptional(json, LAST_ERROR, lastError);
            json.writeNumberField(LAST_ERROR_AGE_MS, lastErrorAgeMs);
            writeOptional(json, STOP_REASON, stopReason);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string cannot fail", e);
        }
        return text.toString();
    }

    private static void writeOptional(JsonGenerator json, String field, @Nullable String value) throws IOException {
        if (value != null) {
            json.writeStringField(field, value);
        }
    }

    /**
     * Reads a /health body.
     *
     * @throws IllegalArgumentException when {@code body} is not one (names what is wrong)
     */
    public static TsoStatus fromJson(String body) {
        Builder b = new Builder(null);
        try (JsonParser json = JSON.createParser(body)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a TSO status: expected a JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.getCurrentName();
                JsonToken value = json.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    json.skipChildren();
                    continue;
                }
                read(b, field, json);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a TSO status: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from a string cannot fail", e);
        }
        if (b.role == null) {
            throw new IllegalArgumentException("not a TSO status: no '" + ROLE + "' field");
        }
        return b.build();
    }

    private static void read(Builder b, String field, JsonParser json) throws IOException {
        switch (field) {
            case ROLE:
                b.role = TsoRole.fromLabel(json.getText());
                break;
            case VERSION:
                b.version = json.getText();
                break;
            case ADDRESS:
                b.address = json.getText();
                break;
            case HTTP_ADDRESS:
                b.httpAddress = json.getText();
                break;
            case EPOCH:
                b.epoch = json.getValueAsLong();
                break;
            case COMMIT_MODE:
                b.commitMode = json.getText();
                break;
            case CONFLICT_LEVEL:
                b.conflictLevel = json.getText();
                break;
            case UPTIME_MS:
                b.uptimeMs = json.getValueAsLong();
                break;
            case LOW_WATERMARK:
                b.lowWatermark = json.getValueAsLong();
                break;
            case CONFLICT_MAP_FILL:
                b.conflictMapFill = json.getValueAsDouble();
                break;
            case CONNECTIONS:
                b.connections = json.getValueAsLong();
                break;
            case LEASE_REMAINING_MS:
                b.leaseRemainingMs = json.getValueAsLong();
                break;
            case ACTIVE_TSO:
                b.activeTso = json.getText();
                break;
            case LAST_ERROR:
                b.lastError = json.getText();
                break;
            case LAST_ERROR_AGE_MS:
                b.lastErrorAgeMs = json.getValueAsLong();
                break;
            case STOP_REASON:
                b.stopReason = json.getText();
                break;
            default:
                // A field of a later version.
                break;
        }
    }

    @Override
    public String toString() {
        return toJson();
    }

    /** Assembles a status; everything not set is unknown (null, 0, or -1 where documented). */
    public static final class Builder {
        private @Nullable TsoRole role;
        private @Nullable String version;
        private @Nullable String address;
        private @Nullable String httpAddress;
        private long epoch;
        private @Nullable String commitMode;
        private @Nullable String conflictLevel;
        private long uptimeMs;
        private long lowWatermark;
        private double conflictMapFill;
        private long connections;
        private long leaseRemainingMs = -1;
        private @Nullable String activeTso;
        private @Nullable String lastError;
        private long lastErrorAgeMs = -1;
        private @Nullable String stopReason;

        private Builder(@Nullable TsoRole role) {
            this.role = role;
        }

        public Builder version(String value) {
            this.version = value;
            return this;
        }

        public Builder address(String value) {
            this.address = value;
            return this;
        }

        public Builder httpAddress(String value) {
            this.httpAddress = value;
            return this;
        }

        /** What an active TSO serves with. */
        public Builder serving(long servingEpoch, String mode, String level) {
            this.epoch = servingEpoch;
            this.commitMode = mode;
            this.conflictLevel = level;
            return this;
        }

        public Builder uptimeMs(long value) {
            this.uptimeMs = value;
            return this;
        }

        public Builder conflictMap(long watermark, double fill) {
            this.lowWatermark = watermark;
            this.conflictMapFill = fill;
            return this;
        }

        public Builder connections(long value) {
            this.connections = value;
            return this;
        }

        public Builder leaseRemainingMs(long value) {
            this.leaseRemainingMs = value;
            return this;
        }

        public Builder activeTso(String value) {
            this.activeTso = value;
            return this;
        }

        /** @param ageMs how long ago it happened */
        public Builder lastError(String message, long ageMs) {
            this.lastError = message;
            this.lastErrorAgeMs = ageMs;
            return this;
        }

        public Builder stopReason(String value) {
            this.stopReason = value;
            return this;
        }

        public TsoStatus build() {
            return new TsoStatus(this);
        }
    }
}
