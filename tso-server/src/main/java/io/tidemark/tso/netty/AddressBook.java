package io.tidemark.tso.netty;

import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Per client address (IP): how many connections it has open, and how many new ones it may open now (a token bucket
 * refilled at the connect rate per second, holding at most one second's worth). Keeps one client, from one address,
 * from holding every connection slot or flooding the TSO with handshakes. Forgets addresses without open connections
 * once it knows many, so it stays small. Not thread-safe: the admission synchronizes.
 */
final class AddressBook {

    private static final class Entry {
        int open;
        double tokens;
        long refilledNanos;
    }

    private final int maxPerAddress;
    private final int connectsPerSecond;
    private final int forgetAbove;
    private final Map<InetAddress, Entry> entries = new HashMap<>();

    /** @param forgetAbove how many addresses to know before forgetting those without open connections */
    AddressBook(int maxPerAddress, int connectsPerSecond, int forgetAbove) {
        this.maxPerAddress = maxPerAddress;
        this.connectsPerSecond = connectsPerSecond;
        this.forgetAbove = forgetAbove;
    }

    /** Why {@code address} may not open a connection now, or null when it may (and it is then counted in). */
    @Nullable String admit(InetAddress address, long nowNanos) {
        Entry entry = entries.computeIfAbsent(address, a -> fresh(nowNanos));
        entry.tokens = Math.min(connectsPerSecond,
                entry.tokens + (nowNanos - entry.refilledNanos) * connectsPerSecond / 1e9);
        entry.refilledNanos = nowNanos;
        if (entry.open >= maxPerAddress) {
            return "its address " + address.getHostAddress() + " has " + entry.open + " connections open, the most one"
                    + " address may";
        }
        if (entry.tokens < 1) {
            return "its address " + address.getHostAddress() + " opened " + connectsPerSecond + " connections in the"
                    + " last second, the most one address may";
        }
        entry.tokens--;
        entry.open++;
        return null;
    }

    /** A connection of {@code address} closed. */
    void closed(InetAddress address) {
        Entry entry = entries.get(address);
        if (entry != null) {
            entry.open--;
        }
        if (entries.size() > forgetAbove) {
            forgetIdleAddresses();
        }
    }

    /** Addresses known. */
    int size() {
        return entries.size();
    }

    private Entry fresh(long nowNanos) {
        Entry entry = new Entry();
        entry.tokens = connectsPerSecond;
        entry.refilledNanos = nowNanos;
        return entry;
    }

    /** An address forgotten starts again with a full bucket: lenient, and only for addresses with nothing open. */
    private void forgetIdleAddresses() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            if (it.next().open <= 0) {
                it.remove();
            }
        }
    }
}
