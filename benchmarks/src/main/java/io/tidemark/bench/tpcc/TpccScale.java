package io.tidemark.bench.tpcc;

/**
 * Table cardinalities: TPC-C's (100,000 items, 10 districts per warehouse, 3,000 customers per district, each with
 * one initial order, the last 900 of them undelivered) multiplied by a scale, with floors that keep every rule
 * meaningful. Districts per warehouse stay 10.
 *
 * @param ordersPerDistrict     initial orders per district (one per customer, as in TPC-C)
 * @param newOrdersPerDistrict  how many of those, the newest, are undelivered (a NEW_ORDER row each)
 */
public record TpccScale(int warehouses, int items, int customersPerDistrict, int ordersPerDistrict,
                        int newOrdersPerDistrict) {

    public static final int DISTRICTS_PER_WAREHOUSE = 10;

    private static final int FULL_ITEMS = 100_000;
    private static final int FULL_CUSTOMERS = 3_000;
    /** TPC-C: orders 2,101 to 3,000 of each district start undelivered, 30%. */
    private static final double UNDELIVERED_SHARE = 0.3;

    public static TpccScale of(int warehouses, double scale) {
        int items = Math.max(100, (int) Math.round(FULL_ITEMS * scale));
        int customers = Math.max(30, (int) Math.round(FULL_CUSTOMERS * scale));
        return new TpccScale(warehouses, items, customers, customers,
                (int) Math.round(customers * UNDELIVERED_SHARE));
    }
}
