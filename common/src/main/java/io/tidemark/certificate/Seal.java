package io.tidemark.certificate;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A value sealed by one TSO incarnation's {@link DecisionKey}: the incarnation's epoch (which key to check it with) and
 * the MAC. It is a commit certificate, a release or unmark token, or a low-watermark certificate, depending on what
 * the key sealed ({@link DecisionKey}). Encoded as the 8-byte big-endian epoch and the {@value DecisionKey#MAC_BYTES}
 * MAC bytes (docs/architecture.md, "Commit table"). Immutable.
 */
public final class Seal {

    /** Bytes of an encoded seal. */
    public static final int BYTES = Long.BYTES + DecisionKey.MAC_BYTES;

    private final long epoch;
    private final byte[] mac;

    Seal(long epoch, byte[] mac) {
        if (mac.length != DecisionKey.MAC_BYTES) {
            throw new IllegalArgumentException("a seal's MAC has " + DecisionKey.MAC_BYTES + " bytes, not "
                    + mac.length);
        }
        this.epoch = epoch;
        this.mac = mac.clone();
    }

    /** The epoch of the incarnation whose key sealed it. */
    public long epoch() {
        return epoch;
    }

    byte[] mac() {
        return mac.clone();
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putLong(epoch).put(mac).array();
    }

    /** Decodes {@link #BYTES} bytes at {@code offset}. @throws IllegalArgumentException when there are fewer */
    public static Seal decode(byte[] array, int offset) {
        if (array == null || offset < 0 || array.length - offset < BYTES) {
            throw new IllegalArgumentException("a seal has " + BYTES + " bytes, "
                    + (array == null ? "none were given" : "only " + Math.max(0, array.length - offset)
                    + " are there"));
        }
        ByteBuffer in = ByteBuffer.wrap(array, offset, BYTES);
        long epoch = in.getLong();
        byte[] mac = new byte[DecisionKey.MAC_BYTES];
        in.get(mac);
        return new Seal(epoch, mac);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Seal && ((Seal) o).epoch == epoch && Arrays.equals(((Seal) o).mac, mac);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(epoch) * 31 + Arrays.hashCode(mac);
    }

    @Override
    public String toString() {
        return "Seal{epoch=" + epoch + '}';
    }
}
