package io.tidemark.bench.tpcc;

import java.util.HashSet;
import java.util.Set;

/**
 * The order lines of one New-Order (clause 2.4.1): 5 to 15 distinct items, chosen by NURand; each supplied by the
 * home warehouse except 1% by another one (when there is another); quantities 1 to 10. In 1% of New-Orders the last
 * item id is unused ({@code items + 1}), which makes the transaction roll back.
 */
record NewOrderLines(int[] itemIds, int[] supplyWarehouses, int[] quantities) {

    static NewOrderLines draw(TpccRandom random, TpccScale scale, int homeWarehouse) {
        int count = random.uniform(5, 15);
        boolean rollback = random.percent(1);
        int[] itemIds = new int[count];
        int[] supply = new int[count];
        int[] quantities = new int[count];
        Set<Integer> chosen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            if (rollback && i == count - 1) {
                itemIds[i] = scale.items() + 1;
            } else {
                // Distinct items: a stock row is read and written once per order.
                int id;
                do {
                    id = random.itemId(scale.items());
                } while (!chosen.add(id));
                itemIds[i] = id;
            }
            supply[i] = scale.warehouses() > 1 && random.percent(1)
                    ? TpccTerminal.otherWarehouse(random, scale.warehouses(), homeWarehouse) : homeWarehouse;
            quantities[i] = random.uniform(1, 10);
        }
        return new NewOrderLines(itemIds, supply, quantities);
    }

    int count() {
        return itemIds.length;
    }
}
