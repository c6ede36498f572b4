package io.tidemark.lease;

import io.tidemark.config.HostAndPort;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The znode in which the active TSO of one timestamp table holds its lease, and what it contains; this class is the
 * only definition of both (documented in docs/operations.md). TSOs compete for it, clients read the active TSO's
 * address from it.
 *
 * <p>Path: {@code <tidemark.zookeeper.root>/tso/<timestamp table>}, e.g. {@code /tidemark/tso/tidemark:timestamps}:
 * two TSOs on the same timestamp table always compete for the same node, TSOs on different tables never do.
 *
 * <p>Data: UTF-8 text of three lines, {@code tidemark-tso-lease 1}, {@code holder <id>} (random per TSO process)
 * and {@code address <host:port>} (where clients reach the holder). The holder renews the lease by rewriting the
 * same data with a compare-and-set on the znode's version, so every renewal changes the version.
 */
public final class TsoLeaseNode {

    private static final String HEADER = "tidemark-tso-lease 1";
    private static final String HOLDER = "holder ";
    private static final String ADDRESS = "address ";

    private final String holder;
    private final HostAndPort address;

    public TsoLeaseNode(String holder, HostAndPort address) {
        if (holder == null || holder.isEmpty() || holder.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("lease holder id must be a non-empty single line, was " + holder);
        }
        this.holder = holder;
        this.address = Objects.requireNonNull(address, "address");
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

    public byte[] encode() {
        return (HEADER + "\n" + HOLDER + holder + "\n" + ADDRESS + address + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @throws IllegalArgumentException when {@code data} is not a lease written by this version of Tidemark
     */
    public static TsoLeaseNode decode(byte[] data) {
        String[] lines = new String(data, StandardCharsets.UTF_8).split("\n");
        if (lines.length != 3 || !lines[0].equals(HEADER) || !lines[1].startsWith(HOLDER)
                || !lines[2].startsWith(ADDRESS)) {
            throw new IllegalArgumentException("not a Tidemark TSO lease: '"
                    + new String(data, StandardCharsets.UTF_8).replace("\n", "\\n") + "'");
        }
        return new TsoLeaseNode(lines[1].substring(HOLDER.length()),
                HostAndPort.parse(lines[2].substring(ADDRESS.length())));
    }

    @Override
    public String toString() {
        return "TSO " + holder + " at " + address;
    }
}
