package io.tidemark.bench.tpcc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TPC-C's consistency conditions 1 to 4 (clause 3.3.2) over facts gathered from the tables. Without the Delivery
 * transaction NEW_ORDER never empties, so conditions 2 and 3 always have rows to check.
 */
public final class TpccConsistency {

    private TpccConsistency() {
    }

    /**
     * What the conditions need of one district.
     *
     * @param maxOrderId     max(O_ID) over its ORDER rows, 0 when there are none
     * @param newOrders      its NEW_ORDER rows
     * @param minNewOrderId  min(NO_O_ID), 0 when there are none
     * @param maxNewOrderId  max(NO_O_ID), 0 when there are none
     * @param sumOrderLineCounts sum(O_OL_CNT) over its ORDER rows
     * @param orderLines     its ORDER_LINE rows
     */
    public record DistrictFacts(int warehouse, int district, long ytdCents, int nextOrderId, int maxOrderId,
                                long newOrders, int minNewOrderId, int maxNewOrderId, long sumOrderLineCounts,
                                long orderLines) {
    }

    /**
     * The violated conditions, each a sentence naming the warehouse or district and the numbers; empty when all hold.
     *
     * @param warehouseYtdCents W_YTD per warehouse id
     */
    public static List<String> violations(Map<Integer, Long> warehouseYtdCents, List<DistrictFacts> districts) {
        List<String> violations = new ArrayList<>();
        warehouseYtdCents.forEach((w, ytd) -> {
            long sum = districts.stream().filter(f -> f.warehouse() == w).mapToLong(DistrictFacts::ytdCents).sum();
            if (ytd != sum) {
                violations.add(String.format(Locale.ROOT,
                        "condition 1: warehouse %d has W_YTD %d cents but its districts' D_YTD sum to %d", w, ytd, sum));
            }
        });
        for (DistrictFacts f : districts) {
            String where = "warehouse " + f.warehouse() + " district " + f.district();
            if (f.nextOrderId() - 1 != f.maxOrderId() || (f.newOrders() > 0 && f.maxNewOrderId() != f.maxOrderId())) {
                violations.add(String.format(Locale.ROOT,
                        "condition 2: %s has D_NEXT_O_ID - 1 = %d, max(O_ID) = %d, max(NO_O_ID) = %d", where,
                        f.nextOrderId() - 1, f.maxOrderId(), f.maxNewOrderId()));
            }
            if (f.newOrders() > 0 && f.maxNewOrderId() - f.minNewOrderId() + 1 != f.newOrders()) {
                violations.add(String.format(Locale.ROOT,
                        "condition 3: %s has %d NEW_ORDER rows but max(NO_O_ID) - min(NO_O_ID) + 1 = %d", where,
                        f.newOrders(), f.maxNewOrderId() - f.minNewOrderId() + 1));
            }
            if (f.sumOrderLineCounts() != f.orderLines()) {
                violations.add(String.format(Locale.ROOT,
                        "condition 4: %s has sum(O_OL_CNT) = %d but %d ORDER_LINE rows", where,
                        f.sumOrderLineCounts(), f.orderLines()));
            }
        }
        return violations;
    }
}
