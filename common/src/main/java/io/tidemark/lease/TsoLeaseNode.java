package io.tidemark.lease;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The znode in which the active TSO of one timestamp table holds its lease, and what it contains; this class is the
 * only definition of both (documented in docs/operations.md). TSOs compete for it, clients read the active TSO's
 * address from it.
 *
 * <p>Path: {@code <tidemark.zookeeper.root>/tso/<timestamp table>}, e.g. {@code /tidemark/tso/tidemark:timestamps}:
 * two TSOs on the same timestamp table always compete for the same node, TSOs on different tables never do.
 *
 * <p>Data: UTF-8 text, one {@code key value} per line: the header {@code tidemark-tso-lease <format>}, then
 * {@code holder <id>} (random per TSO process), {@code address <host:port>} (where clients reach the holder) and,
 * from format 2 on, {@code http <host:port>} (the holder's HTTP endpoint, /metrics and /health; the line is left out,
 * and format 1 written, when the endpoint is off). Readers ignore lines they do not know, so later formats may add
 * lines without breaking them. The holder renews the lease by rewriting the same data with a compare-and-set on the
 * znode's version, so every renewal changes the version.
 */
public final class TsoLeaseNode {

    private static final String HEADER = "tidemark-tso-lease ";
    /** The first format: holder and address only. */
    private static final int FORMAT_WITHOUT_HTTP = 1;
    /** Adds the {@code http} line. */
    private static final int FORMAT_WITH_HTTP = 2;
    private static final String HOLDER = "holder";
    private static final String ADDRESS = "address";
    private static final String HTTP = "http";

    private final String holder;
    private final HostAndPort address;
    private final @Nullable HostAndPort httpAddress;

    /** A lease whose holder has no HTTP endpoint. */
    public TsoLeaseNode(String holder, HostAndPort address) {
        this(holder, address, null);
    }

    /** @param httpAddress where the holder's HTTP endpoint listens, or null when it has none */
    public TsoLeaseNode(String holder, HostAndPort address, @Nullable HostAndPort httpAddress) {
        if (holder == null || holder.isEmpty() || holder.indexOf('\n') >= 0 || holder.indexOf(' ') >= 0) {
            throw new IllegalArgumentException("lease holder id must be a non-empty single word, was " + holder);
        }
        this.holder = holder;
        this.address = Objects.requireNonNull(address, "address");
        this.httpAddress = httpAddress;
    }

    /**
     * The lease znode {@code config} names ({@code tidemark.zookeeper.root}, {@code tidemark.timestamp-table.name}).
     *
     * @throws InvalidConfigurationException when the root is not a znode path
     */
    public static String path(TidemarkConfig config) {
        // The table as HBase names it, so that every spelling of one table (default:t and t) names one lease.
        return path(config.get(TidemarkConfig.ZOOKEEPER_ROOT),
                config.get(TidemarkConfig.TIMESTAMP_TABLE).getNameAsString());
    }

    /** The lease znode of the TSOs on {@code timestampTable} (as {@code namespace:table}) under {@code root}. */
    public static String path(String root, String timestampTable) {
        if (root == null || !root.startsWith("/")) {
            throw new IllegalArgumentException("ZooKeeper root must start with '/', was " + root);
        }
        if (timestampTable == null || timestampTable.isEmpty() || timestampTable.indexOf('/') >= 0) {
            throw new IllegalArgumentException("not a table name: " + timestampTable);
        }
        String base = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        return base + "/tso/" + timestampTable;
    }

    public String holder() {
        return holder;
    }

    /** Where clients reach the holder. */
    public HostAndPort address() {
        return address;
    }

    /** Where the holder's HTTP endpoint (/metrics, /health) listens, or null when it has none. */
    public @Nullable HostAndPort httpAddress() {
        return httpAddress;
    }

    public byte[] encode() {
        StringBuilder text = new StringBuilder(HEADER)
                .append(httpAddress == null ? FORMAT_WITHOUT_HTTP : FORMAT_WITH_HTTP).append('\n')
                .append(HOLDER).append(' ').append(holder).append('\n')
                .append(ADDRESS).append(' ').append(address).append('\n');
        if (httpAddress != null) {
            text.append(HTTP).append(' ').append(httpAddress).append('\n');
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a lease of any format; lines of later formats that this version does not know are ignored.
     *
     * @throws IllegalArgumentException when {@code data} is not a Tidemark TSO lease
     */
    public static TsoLeaseNode decode(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].startsWith(HEADER) || format(lines[0]) < FORMAT_WITHOUT_HTTP) {
            throw notALease(text);
        }
        Map<String, String> values = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int space = lines[i].indexOf(' ');
            if (space > 0) {
                values.putIfAbsent(lines[i].substring(0, space), lines[i].substring(space + 1));
            }
        }
        String holder = values.get(HOLDER);
        String address = values.get(ADDRESS);
        if (holder == null || address == null) {
            throw notALease(text);
        }
        String http = values.get(HTTP);
        return new TsoLeaseNode(holder, HostAndPort.parse(address), http == null ? null : HostAndPort.parse(http));
    }

    private static int format(String header) {
        try {
            return Integer.parseInt(header.substring(HEADER.length()).trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static IllegalArgumentException notALease(String text) {
        return new IllegalArgumentException("not a Tidemark TSO lease: '" + text.replace("\n", "\\n") + "'");
    }

    @Override
    public String toString() {
        return "TSO " + holder + " at " + address + (httpAddress == null ? "" : " (HTTP " + httpAddress + ")");
    }
}
