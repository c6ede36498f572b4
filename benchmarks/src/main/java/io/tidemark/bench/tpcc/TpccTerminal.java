package io.tidemark.bench.tpcc;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.tidemark.bench.tpcc.TpccSchema.FAMILY;
import static io.tidemark.bench.tpcc.TpccSchema.intOf;
import static io.tidemark.bench.tpcc.TpccSchema.key;
import static io.tidemark.bench.tpcc.TpccSchema.longOf;

/**
 * One TPC-C terminal: a thread's tables, bound to a home warehouse, running New-Order and Payment (clauses 2.4 and
 * 2.5) as Tidemark transactions. Not thread-safe.
 */
final class TpccTerminal implements Closeable {

    enum Kind { NEW_ORDER, PAYMENT }

    /** How one transaction ended. */
    enum Outcome { COMMITTED, USER_ROLLBACK }

    private final TransactionManager tm;
    private final Map<TpccSchema.Table, TTable> tables = new EnumMap<>(TpccSchema.Table.class);
    private final TpccScale scale;
    private final TpccRandom random;
    private final int homeWarehouse;

    TpccTerminal(Connection connection, TransactionManager tm, TpccScale scale, TpccRandom random, int homeWarehouse)
            throws IOException {
        this.tm = tm;
        this.scale = scale;
        this.random = random;
        this.homeWarehouse = homeWarehouse;
        for (TpccSchema.Table t : TpccSchema.Table.values()) {
            tables.put(t, new TTable(connection, t.hbaseName()));
        }
    }

    /** The next transaction's kind, drawn by the mix. */
    Kind next(TpccMix mix) {
        return random.nextDouble() < mix.newOrderShare() ? Kind.NEW_ORDER : Kind.PAYMENT;
    }

    /**
     * Runs one transaction of {@code kind} with fresh inputs.
     *
     * @throws TransactionAbortedException when Tidemark aborted it (the terminal does not retry)
     * @throws IOException                 on any other failure, after rolling the transaction back
     */
    Outcome run(Kind kind) throws IOException {
        Transaction tx = tm.begin();
        try {
            return kind == Kind.NEW_ORDER ? newOrder(tx) : payment(tx);
        } catch (IOException | RuntimeException e) {
            if (tx.state() == TransactionState.RUNNING) {
                tm.rollback(tx);
            }
            throw e;
        }
    }

    /**
     * New-Order: reads the warehouse's and district's tax, the district's next order id and the customer; for 5 to 15
     * distinct items reads the item and the supplying warehouse's stock and updates it; inserts the ORDER, NEW_ORDER
     * and ORDER_LINE rows; and writes D_NEXT_O_ID last, so that its tentative version (the district's hot spot, read
     * by every New-Order of the district) is pending for the shortest time before the commit: in low-latency mode a
     * reader that meets a pending version invalidates its writer (docs/architecture.md, "Reading a snapshot").
     */
    private Outcome newOrder(Transaction tx) throws IOException {
        int w = homeWarehouse;
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int c = random.customerId(scale.customersPerDistrict());
        NewOrderLines lines = NewOrderLines.draw(random, scale, w);

        table(TpccSchema.Table.WAREHOUSE).get(tx, new Get(key(w)).addColumn(FAMILY, TpccSchema.W_TAX));
        Result district = table(TpccSchema.Table.DISTRICT).get(tx, new Get(key(w, d))
                .addColumn(FAMILY, TpccSchema.D_TAX).addColumn(FAMILY, TpccSchema.D_NEXT_O_ID));
        int orderId = intOf(district, TpccSchema.D_NEXT_O_ID);
        table(TpccSchema.Table.CUSTOMER).get(tx, new Get(key(w, d, c)).addColumn(FAMILY, TpccSchema.C_DISCOUNT)
                .addColumn(FAMILY, TpccSchema.C_LAST).addColumn(FAMILY, TpccSchema.C_CREDIT));

        List<Get> itemGets = new ArrayList<>();
        for (int itemId : lines.itemIds()) {
            itemGets.add(new Get(key(itemId)).addColumn(FAMILY, TpccSchema.I_PRICE));
        }
        Result[] items = table(TpccSchema.Table.ITEM).get(tx, itemGets);
        for (Result item : items) {
            if (item.isEmpty()) {
                // Clause 2.4.2.3: an unused item id rolls the whole New-Order back.
                tm.rollback(tx);
                return Outcome.USER_ROLLBACK;
            }
        }
        List<Get> stockGets = new ArrayList<>();
        for (int i = 0; i < lines.count(); i++) {
            stockGets.add(new Get(key(lines.supplyWarehouses()[i], lines.itemIds()[i])).addFamily(FAMILY));
        }
        Result[] stocks = table(TpccSchema.Table.STOCK).get(tx, stockGets);
        List<Put> stockPuts = new ArrayList<>();
        List<Put> linePuts = new ArrayList<>();
        boolean allLocal = true;
        for (int i = 0; i < lines.count(); i++) {
            int quantity = lines.quantities()[i];
            boolean remote = lines.supplyWarehouses()[i] != w;
            allLocal &= !remote;
            Result stock = stocks[i];
            stockPuts.add(new Put(stock.getRow())
                    .addColumn(FAMILY, TpccSchema.S_QUANTITY,
                            Bytes.toBytes(newStockQuantity(intOf(stock, TpccSchema.S_QUANTITY), quantity)))
                    .addColumn(FAMILY, TpccSchema.S_YTD, Bytes.toBytes(intOf(stock, TpccSchema.S_YTD) + quantity))
                    .addColumn(FAMILY, TpccSchema.S_ORDER_CNT, Bytes.toBytes(intOf(stock, TpccSchema.S_ORDER_CNT) + 1))
                    .addColumn(FAMILY, TpccSchema.S_REMOTE_CNT,
                            Bytes.toBytes(intOf(stock, TpccSchema.S_REMOTE_CNT) + (remote ? 1 : 0))));
            linePuts.add(new Put(key(w, d, orderId, i + 1))
                    .addColumn(FAMILY, TpccSchema.OL_I_ID, Bytes.toBytes(lines.itemIds()[i]))
                    .addColumn(FAMILY, TpccSchema.OL_SUPPLY_W_ID, Bytes.toBytes(lines.supplyWarehouses()[i]))
                    .addColumn(FAMILY, TpccSchema.OL_QUANTITY, Bytes.toBytes(quantity))
                    .addColumn(FAMILY, TpccSchema.OL_AMOUNT,
                            Bytes.toBytes(quantity * longOf(items[i], TpccSchema.I_PRICE)))
                    .addColumn(FAMILY, TpccSchema.OL_DIST_INFO, stock.getValue(FAMILY, TpccSchema.S_DIST_INFO)));
        }
        table(TpccSchema.Table.STOCK).put(tx, stockPuts);
        table(TpccSchema.Table.ORDER_LINE).put(tx, linePuts);
        table(TpccSchema.Table.ORDER).put(tx, new Put(key(w, d, orderId))
                .addColumn(FAMILY, TpccSchema.O_C_ID, Bytes.toBytes(c))
                .addColumn(FAMILY, TpccSchema.O_ENTRY_D, Bytes.toBytes(System.currentTimeMillis()))
                .addColumn(FAMILY, TpccSchema.O_OL_CNT, Bytes.toBytes(lines.count()))
                .addColumn(FAMILY, TpccSchema.O_ALL_LOCAL, Bytes.toBytes(allLocal ? 1 : 0)));
        table(TpccSchema.Table.NEW_ORDER).put(tx, new Put(key(w, d, orderId))
                .addColumn(FAMILY, TpccSchema.NO_MARKER, new byte[0]));
        table(TpccSchema.Table.DISTRICT).put(tx, new Put(key(w, d))
                .addColumn(FAMILY, TpccSchema.D_NEXT_O_ID, Bytes.toBytes(orderId + 1)));
        tm.commit(tx);
        return Outcome.COMMITTED;
    }

    /** Clause 2.4.2.2: take the quantity, and restock by 91 when fewer than 10 would be left. */
    static int newStockQuantity(int stockQuantity, int orderQuantity) {
        return stockQuantity >= orderQuantity + 10 ? stockQuantity - orderQuantity
                : stockQuantity - orderQuantity + 91;
    }

    /**
     * Payment by customer id (the 60% by last name left out): adds the amount to W_YTD and D_YTD, takes it from the
     * customer's balance, and inserts a HISTORY row. With more than one warehouse, 15% of customers belong to another
     * warehouse (clause 2.5.1.2). Reads first and writes the hottest rows last (D_YTD, then W_YTD, which every Payment
     * of the warehouse reads), for the reason New-Order writes D_NEXT_O_ID last.
     */
    private Outcome payment(Transaction tx) throws IOException {
        int w = homeWarehouse;
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int customerWarehouse = w;
        int customerDistrict = d;
        if (scale.warehouses() > 1 && random.percent(15)) {
            customerWarehouse = otherWarehouse(random, scale.warehouses(), w);
            customerDistrict = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        }
        int c = random.customerId(scale.customersPerDistrict());
        long amount = random.uniform(100, 500_000);

        Result warehouse = table(TpccSchema.Table.WAREHOUSE).get(tx, new Get(key(w))
                .addColumn(FAMILY, TpccSchema.W_YTD));
        Result district = table(TpccSchema.Table.DISTRICT).get(tx, new Get(key(w, d))
                .addColumn(FAMILY, TpccSchema.D_YTD));
        byte[] customerKey = key(customerWarehouse, customerDistrict, c);
        Result customer = table(TpccSchema.Table.CUSTOMER).get(tx, new Get(customerKey)
                .addColumn(FAMILY, TpccSchema.C_BALANCE).addColumn(FAMILY, TpccSchema.C_YTD_PAYMENT)
                .addColumn(FAMILY, TpccSchema.C_PAYMENT_CNT));
        table(TpccSchema.Table.CUSTOMER).put(tx, new Put(customerKey)
                .addColumn(FAMILY, TpccSchema.C_BALANCE,
                        Bytes.toBytes(longOf(customer, TpccSchema.C_BALANCE) - amount))
                .addColumn(FAMILY, TpccSchema.C_YTD_PAYMENT,
                        Bytes.toBytes(longOf(customer, TpccSchema.C_YTD_PAYMENT) + amount))
                .addColumn(FAMILY, TpccSchema.C_PAYMENT_CNT,
                        Bytes.toBytes(intOf(customer, TpccSchema.C_PAYMENT_CNT) + 1)));
        table(TpccSchema.Table.HISTORY).put(tx, new Put(TpccSchema.historyKey(w, d, c, tx.startTimestamp()))
                .addColumn(FAMILY, TpccSchema.H_AMOUNT, Bytes.toBytes(amount))
                .addColumn(FAMILY, TpccSchema.H_DATE, Bytes.toBytes(System.currentTimeMillis())));
        table(TpccSchema.Table.DISTRICT).put(tx, new Put(key(w, d)).addColumn(FAMILY, TpccSchema.D_YTD,
                Bytes.toBytes(longOf(district, TpccSchema.D_YTD) + amount)));
        table(TpccSchema.Table.WAREHOUSE).put(tx, new Put(key(w)).addColumn(FAMILY, TpccSchema.W_YTD,
                Bytes.toBytes(longOf(warehouse, TpccSchema.W_YTD) + amount)));
        tm.commit(tx);
        return Outcome.COMMITTED;
    }

    /** A warehouse other than {@code home}, uniformly; needs at least two warehouses. */
    static int otherWarehouse(TpccRandom random, int warehouses, int home) {
        int other = random.uniform(1, warehouses - 1);
        return other >= home ? other + 1 : other;
    }

    private TTable table(TpccSchema.Table t) {
        return tables.get(t);
    }

    @Override
    public void close() throws IOException {
        for (TTable t : tables.values()) {
            t.close();
        }
    }
}
