package io.tidemark.bench.tpcc;

import io.tidemark.bench.tpcc.TpccConsistency.DistrictFacts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpccConsistencyTest {

    /** District 1 of warehouse 1 after loading 30 orders (the last 9 undelivered) of 10 lines each. */
    private static DistrictFacts consistent(int district) {
        return new DistrictFacts(1, district, 3_000_000L, 31, 30, 9, 22, 30, 300, 300);
    }

    private static List<DistrictFacts> tenDistricts(DistrictFacts first) {
        List<DistrictFacts> all = new java.util.ArrayList<>(List.of(first));
        for (int d = 2; d <= 10; d++) {
            all.add(consistent(d));
        }
        return all;
    }

    @Test
    void consistentTablesHaveNoViolation() {
        assertEquals(List.of(), TpccConsistency.violations(Map.of(1, 30_000_000L), tenDistricts(consistent(1))));
    }

    @Test
    void warehouseYtdDifferentFromItsDistrictsIsCondition1() {
        List<String> found = TpccConsistency.violations(Map.of(1, 30_000_100L), tenDistricts(consistent(1)));

        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("condition 1: warehouse 1"), found.get(0));
    }

    @Test
    void nextOrderIdBehindTheNewestOrderIsCondition2() {
        DistrictFacts lost = new DistrictFacts(1, 1, 3_000_000L, 30, 30, 9, 22, 30, 300, 300);

        List<String> found = TpccConsistency.violations(Map.of(1, 30_000_000L), tenDistricts(lost));

        assertEquals(List.of("condition 2: warehouse 1 district 1 has D_NEXT_O_ID - 1 = 29, max(O_ID) = 30, "
                + "max(NO_O_ID) = 30"), found);
    }

    @Test
    void newestOrderMissingFromNewOrderIsCondition2() {
        DistrictFacts missing = new DistrictFacts(1, 1, 3_000_000L, 31, 30, 8, 22, 29, 300, 300);

        List<String> found = TpccConsistency.violations(Map.of(1, 30_000_000L), tenDistricts(missing));

        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("condition 2:"), found.get(0));
    }

    @Test
    void gapInNewOrderIdsIsCondition3() {
        DistrictFacts gap = new DistrictFacts(1, 1, 3_000_000L, 31, 30, 8, 22, 30, 300, 300);

        List<String> found = TpccConsistency.violations(Map.of(1, 30_000_000L), tenDistricts(gap));

        assertEquals(List.of("condition 3: warehouse 1 district 1 has 8 NEW_ORDER rows but max(NO_O_ID) - "
                + "min(NO_O_ID) + 1 = 9"), found);
    }

    @Test
    void orderLinesDisagreeingWithOrderLineCountsIsCondition4() {
        DistrictFacts lines = new DistrictFacts(1, 1, 3_000_000L, 31, 30, 9, 22, 30, 300, 299);

        List<String> found = TpccConsistency.violations(Map.of(1, 30_000_000L), tenDistricts(lines));

        assertEquals(List.of("condition 4: warehouse 1 district 1 has sum(O_OL_CNT) = 300 but 299 ORDER_LINE rows"),
                found);
    }
}
