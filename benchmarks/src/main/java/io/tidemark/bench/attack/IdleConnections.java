package io.tidemark.bench.attack;

import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Opens connections that say HELLO and then nothing, more than the TSO allows, and holds them. Before the limit
 * existed, 19,900 of them used up the TSO's file descriptors and new clients timed out.
 */
public final class IdleConnections implements Attack {

    private final int count;
    private int held;
    private int refused;
    private final Map<String, Integer> refusals = new TreeMap<>();

    /** @param count connections to try; more than {@code tidemark.tso.max-connections} to attack the limit */
    public IdleConnections(int count) {
        this.count = count;
    }

    @Override
    public String name() {
        return count + " idle connections";
    }

    @Override
    public void run(InetSocketAddress tso, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        List<RawConnection> open = new ArrayList<>();
        byte[] hello = RawConnection.hello();
        try {
            for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                RawConnection connection = null;
                try {
                    connection = new RawConnection(tso, 2000);
                    connection.write(hello);
                    Message reply = connection.readMessage();
                    if (reply instanceof HelloReply) {
                        open.add(connection);
                        held++;
                        continue;
                    }
                    refusal(reply instanceof ErrorReply ? "ERROR " + ((ErrorReply) reply).code() : "closed");
                } catch (IOException e) {
                    refusal("connect failed: " + e.getMessage());
                }
                if (connection != null) {
                    connection.close();
                }
            }
            Attacks.sleepUntil(deadline);
        } finally {
            open.forEach(RawConnection::close);
        }
    }

    private void refusal(String how) {
        refused++;
        refusals.merge(how, 1, Integer::sum);
    }

    /** Connections the TSO admitted. */
    public int held() {
        return held;
    }

    /** Connections the TSO refused at once. */
    public int refused() {
        return refused;
    }

    /** How the refused connections were refused (e.g. {@code ERROR OVERLOADED}), with counts. */
    public Map<String, Integer> refusals() {
        return refusals;
    }

    @Override
    public String outcome() {
        return held + " admitted and held, " + refused + " refused at once " + refusals;
    }
}
