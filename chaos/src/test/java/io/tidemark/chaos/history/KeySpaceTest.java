package io.tidemark.chaos.history;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rows, columns and ranges of the checked key space. */
class KeySpaceTest {

    private final KeySpace keys = KeySpace.of(4);

    @Test
    void aRangeCoversEveryColumnOfItsRowsAndNothingElse() {
        assertEquals(List.of(Key.parse("r01:a"), Key.parse("r01:b"), Key.parse("r01:n"), Key.parse("r02:a"),
                Key.parse("r02:b"), Key.parse("r02:n")), keys.keysIn("r01", "r03"));
        assertEquals(6, keys.keysIn("r02", null).size());
    }

    @Test
    void countersRoundTripAndAnAbsentCounterIsZero() {
        assertEquals("#7", KeySpace.counterValue(7));
        assertEquals(7, KeySpace.counterOf("#7"));
        assertEquals(0, KeySpace.counterOf(null));
        assertThrows(IllegalArgumentException.class, () -> KeySpace.counterOf("p0.1.0a"));
    }

    @Test
    void rowsMustBeAscending() {
        assertThrows(IllegalArgumentException.class, () -> new KeySpace(List.of("r02", "r01"), List.of("a"), "n"));
    }
}
