package io.tidemark.tso.conflict;

import java.security.SecureRandom;

/**
 * SipHash of one 64-bit word under a secret 128-bit key: a hash whose outputs nobody without the key can predict, so
 * nobody can choose inputs that land together (the defence hash tables use against hash flooding). SipHash-1-3 (one
 * compression round, three finalization rounds) by default, the variant hash tables use for speed; allocates nothing.
 * Written from the SipHash paper (Aumasson and Bernstein, 2012).
 */
public final class KeyedHash {

    private final long k0;
    private final long k1;
    private final int compressionRounds;
    private final int finalizationRounds;

    /** SipHash-1-3 under the key ({@code k0}, {@code k1}). */
    public KeyedHash(long k0, long k1) {
        this(k0, k1, 1, 3);
    }

    KeyedHash(long k0, long k1, int compressionRounds, int finalizationRounds) {
        this.k0 = k0;
        this.k1 = k1;
        this.compressionRounds = compressionRounds;
        this.finalizationRounds = finalizationRounds;
    }

    /** SipHash-1-3 under a fresh random key. */
    public static KeyedHash random(SecureRandom random) {
        return new KeyedHash(random.nextLong(), random.nextLong());
    }

    /** The hash of {@code value}, read as the 8-byte little-endian message SipHash defines. */
    public long hash(long value) {
        long v0 = k0 ^ 0x736f6d6570736575L;
        long v1 = k1 ^ 0x646f72616e646f6dL;
        long v2 = k0 ^ 0x6c7967656e657261L;
        long v3 = k1 ^ 0x7465646279746573L;
        // Two blocks, each mixed in by compression rounds: the message, then the length (8) in the top byte; then
        // the finalization rounds. One loop runs all the rounds, mixing each block in where its rounds begin.
        long lengthBlock = 8L << 56;
        int rounds = 2 * compressionRounds + finalizationRounds;
        for (int r = 0; r < rounds; r++) {
            if (r == 0) {
                v3 ^= value;
            } else if (r == compressionRounds) {
                v0 ^= value;
                v3 ^= lengthBlock;
            }
            if (r == 2 * compressionRounds) {
                v0 ^= lengthBlock;
                v2 ^= 0xff;
            }
            v0 += v1;
            v1 = Long.rotateLeft(v1, 13) ^ v0;
            v0 = Long.rotateLeft(v0, 32);
            v2 += v3;
            v3 = Long.rotateLeft(v3, 16) ^ v2;
            v0 += v3;
            v3 = Long.rotateLeft(v3, 21) ^ v0;
            v2 += v1;
            v1 = Long.rotateLeft(v1, 17) ^ v2;
            v2 = Long.rotateLeft(v2, 32);
        }
        return v0 ^ v1 ^ v2 ^ v3;
    }
}
