package io.tidemark.certificate;

import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The secret of one TSO incarnation, with which it certifies its decisions (docs/security.md, "Only the TSO's
 * decisions reach the commit table"): a commit certificate for each transaction it committed, a release token that
 * lets the committer (and only it, the region servers and the sweeper) remove that commit record again, an unmark
 * token that lets region servers and the sweeper remove an invalidation marker, and a certificate for each low
 * watermark it persists. Each is an HMAC-SHA256 of the fields it covers, with a purpose byte first so that no value
 * of one kind is ever valid as another, cut to {@value #MAC_BYTES} bytes. The secret lives in the timestamp table,
 * which only TSOs write and only TSOs, region servers and operators read ({@code TimestampTableSchema#KEYS_ROW});
 * applications never see it. Thread-safe and immutable.
 */
public final class DecisionKey {

    /** Bytes of the secret. */
    public static final int SECRET_BYTES = 32;

    /** Bytes of every certificate and token. */
    public static final int MAC_BYTES = 16;

    private static final String ALGORITHM = "HmacSHA256";
    private static final byte COMMIT = 1;
    private static final byte RELEASE = 2;
    private static final byte UNMARK = 3;
    private static final byte LOW_WATERMARK = 4;

    private final long epoch;
    private final byte[] secret;
    /**
     * One initialized Mac per thread: looking the algorithm up and keying it cost more than the MAC itself, twice per
     * COMMIT on the TSO's event loop (a Mac is not thread-safe, and region servers verify on many handler threads).
     */
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    private DecisionKey(long epoch, byte[] secret) {
        if (secret.length != SECRET_BYTES) {
            throw new IllegalArgumentException("a decision key's secret has " + SECRET_BYTES + " bytes, not "
                    + secret.length);
        }
        this.epoch = epoch;
        this.secret = secret.clone();
    }

    /** A new random key for the incarnation of {@code epoch}. */
    public static DecisionKey generate(long epoch, SecureRandom random) {
        byte[] secret = new byte[SECRET_BYTES];
        random.nextBytes(secret);
        return new DecisionKey(epoch, secret);
    }

    /** The key of {@code epoch} as the timestamp table stores it. */
    public static DecisionKey of(long epoch, byte[] secret) {
        return new DecisionKey(epoch, secret);
    }

    /** The epoch of the incarnation this key belongs to. */
    public long epoch() {
        return epoch;
    }

    /** The secret, for the timestamp table. */
    public byte[] secret() {
        return secret.clone();
    }

    /** Certifies that the TSO committed the transaction that started at {@code start} at {@code commit}. */
    public Seal commitCertificate(long start, long commit) {
        return new Seal(epoch, mac(COMMIT, start, commit));
    }

    /** The right to remove the commit record of the transaction that started at {@code start}. */
    public Seal releaseToken(long start) {
        return new Seal(epoch, mac(RELEASE, start, 0));
    }

    /** The right to remove an invalidation marker of the transaction that started at {@code start}. */
    public Seal unmarkToken(long start) {
        return new Seal(epoch, mac(UNMARK, start, 0));
    }

    /** Certifies a low watermark the TSO persists. */
    public Seal lowWatermarkCertificate(long lowWatermark) {
        return new Seal(epoch, mac(LOW_WATERMARK, lowWatermark, 0));
    }

    /** Whether {@code seal} is this key's commit certificate of {@code start} at {@code commit}. */
    public boolean certifiesCommit(@Nullable Seal seal, long start, long commit) {
        return matches(seal, COMMIT, start, commit);
    }

    /** Whether {@code seal} is this key's release token of {@code start}. */
    public boolean releases(@Nullable Seal seal, long start) {
        return matches(seal, RELEASE, start, 0);
    }

    /** Whether {@code seal} is this key's unmark token of {@code start}. */
    public boolean unmarks(@Nullable Seal seal, long start) {
        return matches(seal, UNMARK, start, 0);
    }

    /** Whether {@code seal} is this key's certificate of {@code lowWatermark}. */
    public boolean certifiesLowWatermark(@Nullable Seal seal, long lowWatermark) {
        return matches(seal, LOW_WATERMARK, lowWatermark, 0);
    }

    /** Compared in constant time, so a forger learns nothing from how long a refusal takes. */
    private boolean matches(@Nullable Seal seal, byte purpose, long first, long second) {
        return seal != null && seal.epoch() == epoch && MessageDigest.isEqual(mac(purpose, first, second), seal.mac());
    }

    private byte[] mac(byte purpose, long first, long second) {
        Mac mac = macs.get();
        mac.update(ByteBuffer.allocate(1 + 3 * Bytes.SIZEOF_LONG).put(purpose).putLong(epoch).putLong(first)
                .putLong(second).array());
        // doFinal leaves the Mac initialized with the secret, ready for the next value.
        return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            return mac;
        } catch (GeneralSecurityException e) {
            // Every JDK provides HmacSHA256 (it is a required algorithm).
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    @Override
    public String toString() {
        return "DecisionKey{epoch=" + epoch + '}';
    }
}
