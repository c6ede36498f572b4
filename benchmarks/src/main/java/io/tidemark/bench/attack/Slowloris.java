package io.tidemark.bench.attack;

import io.tidemark.protocol.Protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Connections that trickle one byte at a time of a first frame as long as the TSO allows before HELLO, so that it
 * takes far longer than any handshake timeout to complete; each one closed by the TSO is opened again. Before the
 * handshake timeout existed, such connections were never closed.
 */
public final class Slowloris implements Attack {

    /** The attacker's address: another client than the normal one as far as the TSO can tell. */
    private static final String SOURCE = "127.0.0.5";

    private final int count;
    private final Duration byteInterval;
    private int opened;
    private int closedByTso;
    private long longestLifeMillis;
    private final List<Long> lifetimes = new ArrayList<>();

    /** @param byteInterval time between two bytes of one connection (one second in the attack) */
    public Slowloris(int count, Duration byteInterval) {
        this.count = count;
        this.byteInterval = byteInterval;
    }

    @Override
    public String name() {
        return count + " slowloris connections (1 byte per " + byteInterval.toMillis() + " ms)";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        InetSocketAddress tso = target.tso();
        long deadline = System.nanoTime() + duration.toNanos();
        byte[] trickle = ByteBuffer.allocate(Protocol.LENGTH_FIELD_BYTES + Protocol.MAX_HELLO_FRAME_BYTES)
                .putInt(Protocol.MAX_HELLO_FRAME_BYTES).array();
        RawConnection[] connections = new RawConnection[count];
        int[] sent = new int[count];
        try {
            while (System.nanoTime() < deadline) {
                long tick = System.nanoTime();
                for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                    try {
                        if (connections[i] == null) {
                            connections[i] = new RawConnection(tso, SOURCE, null, 1);
                            sent[i] = 0;
                            opened++;
                        }
                        connections[i].write(trickle, sent[i] % trickle.length, 1);
                        sent[i]++;
                    } catch (IOException e) {
                        if (connections[i] != null) {
                            closedByTso++;
                            lifetimes.add(connections[i].ageMillis());
                            longestLifeMillis = Math.max(longestLifeMillis, connections[i].ageMillis());
                            connections[i].close();
                            connections[i] = null;
                        }
                    }
                }
                Attacks.sleepUntil(Math.min(deadline, tick + byteInterval.toNanos()));
            }
        } finally {
            for (RawConnection c : connections) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    @Override
    public String outcome() {
        List<Long> sorted = new ArrayList<>(lifetimes);
        Collections.sort(sorted);
        return opened + " opened, " + closedByTso + " closed by the TSO (lived median "
                + (sorted.isEmpty() ? "-" : sorted.get(sorted.size() / 2)) + " ms, longest " + longestLifeMillis
                + " ms, as the attacker noticed at its next byte)";
    }

    /** Connections the TSO closed. */
    public int closedByTso() {
        return closedByTso;
    }
}
