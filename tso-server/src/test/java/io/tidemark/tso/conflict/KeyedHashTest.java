package io.tidemark.tso.conflict;

import com.google.common.hash.Hashing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Timeout(60)
class KeyedHashTest {

    @Test
    void withTwoAndFourRoundsItIsSipHash24() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            long k0 = random.nextLong();
            long k1 = random.nextLong();
            long value = random.nextLong();
            assertEquals(Hashing.sipHash24(k0, k1).hashLong(value).asLong(),
                    new KeyedHash(k0, k1, 2, 4).hash(value), "SipHash-2-4 of " + value);
        }
    }

    @Test
    void anotherKeyGivesAnotherHash() {
        assertNotEquals(new KeyedHash(1, 2).hash(42), new KeyedHash(1, 3).hash(42));
        assertNotEquals(new KeyedHash(1, 2).hash(42), new KeyedHash(1, 2).hash(43));
    }
}
