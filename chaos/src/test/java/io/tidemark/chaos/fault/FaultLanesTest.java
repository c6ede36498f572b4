package io.tidemark.chaos.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A lane's schedule follows from the seed alone and injects every fault each round, its variants taking turns. */
@Timeout(30)
class FaultLanesTest {

    /** A fault of a family (e.g. a partition) in one variant (e.g. a length); injecting it does nothing. */
    private record Variant(String family, String variant) implements FaultKind {
        @Override
        public String description() {
            return family + ", " + variant;
        }

        @Override
        public String family() {
            return family;
        }

        @Override
        public String inject(FaultTarget target, Random random) {
            return "nothing";
        }
    }

    private static final List<FaultKind> FAULTS = List.of(new Variant("cut", "below"), new Variant("cut", "near"),
            new Variant("cut", "above"), new Variant("pause", "below"), new Variant("pause", "near"),
            new Variant("pause", "above"), new Variant("kill", "once"));
    private static final FaultLanes.Lane LANE = new FaultLanes.Lane("test", FAULTS, 10, 20);

    @Test
    void everyRoundInjectsEveryFaultOnceAndItsVariantsTakeTurns() {
        List<FaultLanes.Planned> planned = FaultLanes.draw(LANE, 42, 0);
        Set<String> seen = new HashSet<>();
        for (int round = 0; round < 3; round++) {
            List<FaultLanes.Planned> thisRound = planned.subList(3 * round, 3 * round + 3);
            assertEquals(Set.of("cut", "pause", "kill"), new HashSet<>(thisRound.stream().map(p -> p.kind().family())
                    .toList()), "round " + round);
            thisRound.forEach(p -> seen.add(p.kind().description()));
            thisRound.forEach(p -> assertTrue(p.gapMillis() >= 10 && p.gapMillis() <= 20, p.toString()));
        }
        assertEquals(FAULTS.size(), seen.size(), "three rounds give every variant its turn: " + seen);
    }

    @Test
    void aLaneOfOneRoundInjectsEachFaultOnce() {
        List<FaultLanes.Planned> planned = FaultLanes.draw(new FaultLanes.Lane("once", FAULTS, 10, 20, 1), 42, 0);
        assertEquals(List.of("cut", "kill", "pause"), planned.stream().map(p -> p.kind().family()).sorted().toList());
    }

    @Test
    void theScheduleFollowsFromTheSeedAlone() {
        assertEquals(FaultLanes.draw(LANE, 42, 0), FaultLanes.draw(LANE, 42, 0));
        assertEquals(FaultLanes.plan(List.of(LANE), 42), FaultLanes.plan(List.of(LANE), 42));
        assertNotEquals(FaultLanes.draw(LANE, 42, 0), FaultLanes.draw(LANE, 43, 0));
        assertTrue(FaultLanes.plan(List.of(LANE), 42).contains("lane test (3 faults a round"),
                FaultLanes.plan(List.of(LANE), 42));
    }
}
