package io.tidemark.certificate;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecisionKeyTest {

    private final DecisionKey key = DecisionKey.generate(4096, new SecureRandom());

    @Test
    void aSealCoversItsFieldsItsKindAndItsKeyOnly() {
        Seal commit = key.commitCertificate(8192, 12288);
        assertTrue(key.certifiesCommit(commit, 8192, 12288));
        assertTrue(DecisionKey.of(4096, key.secret()).certifiesCommit(commit, 8192, 12288),
                "the same key stored and read back");
        assertFalse(key.certifiesCommit(commit, 8192, 16384), "another commit timestamp");
        assertFalse(key.certifiesCommit(commit, 4096, 12288), "another transaction");
        assertFalse(key.releases(key.unmarkToken(8192), 8192), "another kind");
        assertFalse(key.unmarks(key.releaseToken(8192), 8192));
        assertFalse(key.certifiesLowWatermark(key.releaseToken(8192), 8192));
        assertFalse(DecisionKey.of(8192, key.secret()).certifiesCommit(commit, 8192, 12288), "another epoch");
        assertFalse(DecisionKey.generate(4096, new SecureRandom()).certifiesCommit(commit, 8192, 12288),
                "another incarnation's secret");
        assertFalse(key.certifiesCommit(null, 8192, 12288));
    }

    @Test
    void aSealRoundTripsAndAShortOneIsRefused() {
        Seal token = key.releaseToken(8192);
        byte[] encoded = token.encode();
        assertEquals(Seal.BYTES, encoded.length);
        assertEquals(token, Seal.decode(encoded, 0));
        assertEquals(4096, Seal.decode(encoded, 0).epoch());
        assertThrows(IllegalArgumentException.class, () -> Seal.decode(new byte[Seal.BYTES - 1], 0));
        assertThrows(IllegalArgumentException.class, () -> DecisionKey.of(1, new byte[16]));
    }

    /** Region servers verify on many handler threads with one key: each thread's seals are the key's seals. */
    @Test
    void sealsMadeOnManyThreadsAtOnceAreTheKeysSeals() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                long base = thread * 100_000L;
                results.add(threads.submit(() -> {
                    for (long start = base; start < base + 20_000; start++) {
                        Seal seal = key.commitCertificate(start, start + 1);
                        if (!key.certifiesCommit(seal, start, start + 1) || key.certifiesCommit(seal, start, start)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertTrue(result.get());
            }
            DecisionKey stored = DecisionKey.of(4096, key.secret());
            assertEquals(stored.commitCertificate(7, 8), key.commitCertificate(7, 8));
        } finally {
            threads.shutdownNow();
        }
    }
}
