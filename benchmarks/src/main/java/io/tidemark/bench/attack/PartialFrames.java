package io.tidemark.bench.attack;

import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageCodec;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Connections that announce a huge frame and send only part of it. Before HELLO (the attack: 16 MiB frames,
 * which each made the TSO buffer about 20 MB until 120 of them ran it out of memory) the TSO must refuse them from the
 * length alone; the attack then reconnects and tries again for its whole duration. After HELLO, the largest frame the
 * TSO accepts is announced and all but its last byte sent, and the connection held: what that costs is bounded by the
 * TSO's frame limit times its connection limit.
 */
public final class PartialFrames implements Attack {

    private static final int CHUNK = 64 * 1024;
    private static final int ADDRESS_BLOCK = 20;

    private final int count;
    private final int addresses;
    private final int announcedBytes;
    private final boolean afterHello;
    private int attempts;
    private int refusedEarly;
    private int held;
    private int droppedLater;
    private long bytesSent;

    /**
     * @param addresses how many loopback addresses the connections come from
     * @param announcedBytes the frame length sent; ignored after HELLO, where the largest COMMIT the TSO accepts
     *        (from the write-set cap it announces) is used
     */
    public PartialFrames(int count, int addresses, int announcedBytes, boolean afterHello) {
        this.count = count;
        this.addresses = addresses;
        this.announcedBytes = announcedBytes;
        this.afterHello = afterHello;
    }

    @Override
    public String name() {
        return count + " partial " + (afterHello ? "largest accepted frames after HELLO"
                : (announcedBytes >> 20) + " MiB frames before HELLO") + " from " + addresses + " addresses";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        InetSocketAddress tso = target.tso();
        long deadline = System.nanoTime() + duration.toNanos();
        RawConnection[] slots = new RawConnection[count];
        byte[] chunk = new byte[CHUNK];
        try {
            while (System.nanoTime() < deadline) {
                boolean everyoneHeld = true;
                for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                    if (slots[i] != null && slots[i].closedByTso(1)) {
                        // Held at first, closed later (the TSO's frame timeout or budget): try again.
                        droppedLater++;
                        slots[i].close();
                        slots[i] = null;
                    }
                    if (slots[i] == null) {
                        everyoneHeld = false;
                        slots[i] = attempt(tso, Attacks.source(ADDRESS_BLOCK, i, addresses), chunk);
                    }
                }
                if (everyoneHeld) {
                    Attacks.sleepUntil(Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100)));
                }
            }
        } finally {
            for (RawConnection c : slots) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /** One connection with a partial frame: returned when the TSO holds it, null when it refused it. */
    private RawConnection attempt(InetSocketAddress tso, String source, byte[] chunk) {
        attempts++;
        RawConnection connection = null;
        try {
            connection = new RawConnection(tso, source, null, 2000);
            int length = announcedBytes;
            if (afterHello) {
                connection.write(RawConnection.hello());
                Message reply = connection.readMessage();
                if (!(reply instanceof HelloReply)) {
                    refusedEarly++;
                    connection.close();
                    return null;
                }
                int maxWriteSet = ((HelloReply) reply).maxWriteSet();
                length = (int) MessageCodec.commitBodyBytes(maxWriteSet, maxWriteSet);
            }
            connection.write(ByteBuffer.allocate(4).putInt(length).array());
            bytesSent += 4;
            for (int left = length - 1; left > 0; left -= chunk.length) {
                int n = Math.min(left, chunk.length);
                connection.write(chunk, 0, n);
                bytesSent += n;
                if (!afterHello && connection.closedByTso(100)) {
                    break;
                }
            }
            if (connection.closedByTso(afterHello ? 5 : 100)) {
                refusedEarly++;
                connection.close();
                return null;
            }
            held++;
            return connection;
        } catch (IOException e) {
            refusedEarly++;
            if (connection != null) {
                connection.close();
            }
            return null;
        }
    }

    @Override
    public String outcome() {
        return attempts + " attempts, " + refusedEarly + " refused, " + held + " held, of which " + droppedLater
                + " closed later; " + (bytesSent >> 20) + " MiB sent in all";
    }

    /** Connections the TSO held with a partial frame. */
    public int held() {
        return held;
    }

    /** Attempts the TSO refused (closed the connection before the frame was held). */
    public int refused() {
        return refusedEarly;
    }
}
