package io.tidemark.tso.processing;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import javax.security.auth.x500.X500Principal;

/**
 * Commit ownership: the TSO hands out a token with every start timestamp and commits a transaction only when its
 * COMMIT carries that token back. A token is a SipHash-2-4 MAC (a keyed hash designed for short inputs, about as fast
 * as a plain hash) of the start timestamp and the client's identity under a random 128-bit key of this TSO
 * incarnation. Without the key nobody can compute the token of another client's start timestamp, so nobody can
 * commit (or, in batched mode, make the TSO write a commit record for) a transaction it did not begin.
 *
 * <p>Stateless by design: nothing is remembered per BEGIN (read-only transactions never COMMIT, so remembered start
 * timestamps would pile up), a token stays valid across reconnects and on every connection of the client, and a
 * transaction of an earlier incarnation (whose key is gone) is refused as {@code STALE_EPOCH} before its token is
 * looked at. With mutual TLS the identity is the client certificate's subject, so a token is good only for the client
 * it was issued to; without client certificates every client has identity {@link #ANONYMOUS}.
 */
public final class CommitTokens {

    /** The identity of a client without a certificate. */
    public static final long ANONYMOUS = 0;

    private final HashFunction mac;

    /** Tokens under a fresh random key. */
    public CommitTokens(SecureRandom random) {
        this.mac = Hashing.sipHash24(random.nextLong(), random.nextLong());
    }

    /** The token for {@code startTimestamp} handed out to the client {@code identity}. */
    public long issue(long startTimestamp, long identity) {
        return mac.newHasher().putLong(startTimestamp).putLong(identity).hash().asLong();
    }

    /** Whether {@code token} was issued by this TSO incarnation for {@code startTimestamp} to {@code identity}. */
    public boolean isValid(long startTimestamp, long identity, long token) {
        return issue(startTimestamp, identity) == token;
    }

    /** The identity of a client whose certificate names {@code subject}, however its distinguished name is spelled. */
    public long identityOf(X500Principal subject) {
        long identity = mac.hashString(subject.getName(X500Principal.CANONICAL), StandardCharsets.UTF_8).asLong();
        return identity == ANONYMOUS ? 1 : identity;
    }
}
