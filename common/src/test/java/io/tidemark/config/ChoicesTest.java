package io.tidemark.config;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ChoicesTest {

    private enum Colour { RED, GREEN, BLUE }

    private static String nameOf(Colour c) {
        return c.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Test
    void aNameIsFoundIgnoringCaseAndSurroundingBlanks() {
        assertEquals(Colour.GREEN, Choices.parse(Colour.values(), ChoicesTest::nameOf, "  Green ", "colour"));
    }

    @Test
    void anUnknownNameIsRefusedNamingEveryAcceptedOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Choices.parse(Colour.values(), ChoicesTest::nameOf, "mauve", "colour"));
        assertEquals("'mauve' is not a colour: use red, green or blue", e.getMessage());
    }

    @Test
    void aMissingNameIsRefusedLikeAnUnknownOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Choices.parse(Colour.values(), ChoicesTest::nameOf, null, "colour"));
        assertEquals("'null' is not a colour: use red, green or blue", e.getMessage());
    }

    @Test
    void twoAlternativesAreJoinedByOr() {
        assertEquals("red or green",
                Choices.alternatives(new Colour[] {Colour.RED, Colour.GREEN}, ChoicesTest::nameOf));
    }
}
