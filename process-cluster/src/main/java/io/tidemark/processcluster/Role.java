package io.tidemark.processcluster;

import java.util.Locale;

/**
 * What a process of the cluster is: where its loopback address lies ({@code 127.0.<subnet>.<first + n - 1>} for
 * the n-th of its kind) and how large its heap is. The heaps are small on purpose: the whole cluster shares a
 * machine of 2 cores with everything else.
 */
public enum Role {

    ZOOKEEPER("zk", 1, 1, "96m"),
    NAMENODE("namenode", 2, 1, "256m"),
    DATANODE("datanode", 2, 11, "160m"),
    MASTER("master", 3, 1, "320m"),
    REGION_SERVER("regionserver", 3, 11, "448m"),
    TSO("tso", 4, 1, "256m"),
    CLIENT("client", 5, 1, "256m");

    private final String prefix;
    private final int subnet;
    private final int firstHost;
    private final String heap;

    Role(String prefix, int subnet, int firstHost, String heap) {
        this.prefix = prefix;
        this.subnet = subnet;
        this.firstHost = firstHost;
        this.heap = heap;
    }

    /** The name of its n-th process, counting from 1: {@code zk1}, {@code regionserver3}, ... */
    public String nameOf(int n) {
        return prefix + n;
    }

    /** The loopback address of its n-th process, counting from 1. */
    public String addressOf(int n) {
        if (n < 1 || firstHost + n - 1 > 254) {
            throw new IllegalArgumentException("no address for " + nameOf(n));
        }
        return "127.0." + subnet + "." + (firstHost + n - 1);
    }

    /** The {@code -Xmx} value of its JVMs. */
    public String heap() {
        return heap;
    }

    /** The role a process name belongs to, e.g. {@code regionserver2}: {@link #REGION_SERVER}. */
    public static Role ofName(String name) {
        for (Role r : values()) {
            if (name.startsWith(r.prefix) && name.substring(r.prefix.length()).matches("[1-9][0-9]*")) {
                return r;
            }
        }
        throw new IllegalArgumentException("no process of the cluster is called '" + name + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
