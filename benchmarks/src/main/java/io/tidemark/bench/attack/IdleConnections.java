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
 * Opens connections that say HELLO and then nothing, more than the TSO allows, from one address or spread over
 * several, and holds them. Before the limit existed, 19,900 of them used up the TSO's file descriptors and new clients
 * timed out; before limits per address and the reclaiming of idle slots (issue 33), 4,096 held every slot for five
 * minutes.
 */
public final class IdleConnections implements Attack {

    private static final int ADDRESS_BLOCK = 10;

    private final int count;
    private final int addresses;
    private int held;
    private int refused;
    private final Map<String, Integer> refusals = new TreeMap<>();

    /**
     * @param count connections to try; more than {@code tidemark.tso.max-connections} to attack the limit
     * @param addresses how many loopback addresses they come from
     */
    public IdleConnections(int count, int addresses) {
        this.count = count;
        this.addresses = addresses;
    }

    @Override
    public String name() {
        return count + " idle connections from " + addresses + (addresses == 1 ? " address" : " addresses");
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        InetSocketAddress tso = target.tso();
        long deadline = System.nanoTime() + duration.toNanos();
        List<RawConnection> open = new ArrayList<>();
        byte[] hello = RawConnection.hello();
        try {
            for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                RawConnection connection = null;
                try {
                    connection = new RawConnection(tso, Attacks.source(ADDRESS_BLOCK, i, addresses), null, 2000);
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
