package io.tidemark.bench.tpcc;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static io.tidemark.bench.tpcc.TpccSchema.FAMILY;

/**
 * Loads the initial database (clause 4.3.3, at the chosen scale) through Tidemark transactions of up to
 * {@link #ROWS_PER_TRANSACTION} rows. The puts are conflict-free: no other transaction runs during the load.
 */
final class TpccLoader {

    static final int ROWS_PER_TRANSACTION = 1000;
    /** W_YTD at load: 300,000.00, the sum of its ten districts' D_YTD of 30,000.00 (consistency condition 1). */
    static final long INITIAL_W_YTD_CENTS = 30_000_000L;
    static final long INITIAL_D_YTD_CENTS = 3_000_000L;

    private final TransactionManager tm;
    private final Map<TpccSchema.Table, TTable> tables = new EnumMap<>(TpccSchema.Table.class);
    private final Map<TpccSchema.Table, List<Put>> pending = new EnumMap<>(TpccSchema.Table.class);
    private final TpccScale scale;
    private final TpccRandom random;
    private final long now = System.currentTimeMillis();
    private int pendingRows;

    private TpccLoader(Connection connection, TransactionManager tm, TpccScale scale, TpccRandom random)
            throws IOException {
        this.tm = tm;
        this.scale = scale;
        this.random = random;
        for (TpccSchema.Table t : TpccSchema.Table.values()) {
            tables.put(t, new TTable(connection, t.hbaseName()));
            pending.put(t, new ArrayList<>());
        }
    }

    /** Loads every table; they must exist and be empty. */
    static void load(Connection connection, TransactionManager tm, TpccScale scale, TpccRandom random)
            throws IOException {
        TpccLoader loader = new TpccLoader(connection, tm, scale, random);
        try {
            loader.loadAll();
        } finally {
            for (TTable t : loader.tables.values()) {
                t.close();
            }
        }
    }

    private void loadAll() throws IOException {
        for (int i = 1; i <= scale.items(); i++) {
            add(TpccSchema.Table.ITEM, new Put(TpccSchema.key(i))
                    .addColumn(FAMILY, TpccSchema.I_NAME, Bytes.toBytes(random.alphanumeric(14, 24)))
                    .addColumn(FAMILY, TpccSchema.I_PRICE, Bytes.toBytes((long) random.uniform(100, 10_000))));
        }
        for (int w = 1; w <= scale.warehouses(); w++) {
            add(TpccSchema.Table.WAREHOUSE, new Put(TpccSchema.key(w))
                    .addColumn(FAMILY, TpccSchema.W_TAX, Bytes.toBytes(random.uniform(0, 2000)))
                    .addColumn(FAMILY, TpccSchema.W_YTD, Bytes.toBytes(INITIAL_W_YTD_CENTS)));
            for (int i = 1; i <= scale.items(); i++) {
                add(TpccSchema.Table.STOCK, new Put(TpccSchema.key(w, i))
                        .addColumn(FAMILY, TpccSchema.S_QUANTITY, Bytes.toBytes(random.uniform(10, 100)))
                        .addColumn(FAMILY, TpccSchema.S_YTD, Bytes.toBytes(0))
                        .addColumn(FAMILY, TpccSchema.S_ORDER_CNT, Bytes.toBytes(0))
                        .addColumn(FAMILY, TpccSchema.S_REMOTE_CNT, Bytes.toBytes(0))
                        .addColumn(FAMILY, TpccSchema.S_DIST_INFO, Bytes.toBytes(random.alphanumeric(24, 24))));
            }
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                loadDistrict(w, d);
            }
        }
        flush();
    }

    private void loadDistrict(int w, int d) throws IOException {
        add(TpccSchema.Table.DISTRICT, new Put(TpccSchema.key(w, d))
                .addColumn(FAMILY, TpccSchema.D_TAX, Bytes.toBytes(random.uniform(0, 2000)))
                .addColumn(FAMILY, TpccSchema.D_YTD, Bytes.toBytes(INITIAL_D_YTD_CENTS))
                .addColumn(FAMILY, TpccSchema.D_NEXT_O_ID, Bytes.toBytes(scale.ordersPerDistrict() + 1)));
        for (int c = 1; c <= scale.customersPerDistrict(); c++) {
            add(TpccSchema.Table.CUSTOMER, new Put(TpccSchema.key(w, d, c))
                    .addColumn(FAMILY, TpccSchema.C_LAST, Bytes.toBytes(random.loadLastName(c)))
                    .addColumn(FAMILY, TpccSchema.C_CREDIT, Bytes.toBytes(random.percent(10) ? "BC" : "GC"))
                    .addColumn(FAMILY, TpccSchema.C_DISCOUNT, Bytes.toBytes(random.uniform(0, 5000)))
                    .addColumn(FAMILY, TpccSchema.C_BALANCE, Bytes.toBytes(-1000L))
                    .addColumn(FAMILY, TpccSchema.C_YTD_PAYMENT, Bytes.toBytes(1000L))
                    .addColumn(FAMILY, TpccSchema.C_PAYMENT_CNT, Bytes.toBytes(1)));
        }
        int[] customers = permutation(scale.customersPerDistrict());
        int firstUndelivered = scale.ordersPerDistrict() - scale.newOrdersPerDistrict() + 1;
        for (int o = 1; o <= scale.ordersPerDistrict(); o++) {
            boolean delivered = o < firstUndelivered;
            int lines = random.uniform(5, 15);
            Put order = new Put(TpccSchema.key(w, d, o))
                    .addColumn(FAMILY, TpccSchema.O_C_ID, Bytes.toBytes(customers[o - 1]))
                    .addColumn(FAMILY, TpccSchema.O_ENTRY_D, Bytes.toBytes(now))
                    .addColumn(FAMILY, TpccSchema.O_OL_CNT, Bytes.toBytes(lines))
                    .addColumn(FAMILY, TpccSchema.O_ALL_LOCAL, Bytes.toBytes(1));
            if (delivered) {
                order.addColumn(FAMILY, TpccSchema.O_CARRIER_ID, Bytes.toBytes(random.uniform(1, 10)));
            } else {
                add(TpccSchema.Table.NEW_ORDER, new Put(TpccSchema.key(w, d, o))
                        .addColumn(FAMILY, TpccSchema.NO_MARKER, new byte[0]));
            }
            add(TpccSchema.Table.ORDER, order);
            for (int ol = 1; ol <= lines; ol++) {
                add(TpccSchema.Table.ORDER_LINE, new Put(TpccSchema.key(w, d, o, ol))
                        .addColumn(FAMILY, TpccSchema.OL_I_ID, Bytes.toBytes(random.uniform(1, scale.items())))
                        .addColumn(FAMILY, TpccSchema.OL_SUPPLY_W_ID, Bytes.toBytes(w))
                        .addColumn(FAMILY, TpccSchema.OL_QUANTITY, Bytes.toBytes(5))
                        .addColumn(FAMILY, TpccSchema.OL_AMOUNT,
                                Bytes.toBytes(delivered ? 0L : (long) random.uniform(1, 999_999)))
                        .addColumn(FAMILY, TpccSchema.OL_DIST_INFO, Bytes.toBytes(random.alphanumeric(24, 24))));
            }
        }
    }

    /** O_C_ID of the initial orders: a random permutation of the customer ids (clause 4.3.3.1). */
    private int[] permutation(int n) {
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.uniform(0, i);
            int swap = ids[i];
            ids[i] = ids[j];
            ids[j] = swap;
        }
        return ids;
    }

    private void add(TpccSchema.Table table, Put put) throws IOException {
        pending.get(table).add(put);
        if (++pendingRows >= ROWS_PER_TRANSACTION) {
            flush();
        }
    }

    private void flush() throws IOException {
        if (pendingRows == 0) {
            return;
        }
        Transaction tx = tm.begin();
        boolean committed = false;
        try {
            for (Map.Entry<TpccSchema.Table, List<Put>> e : pending.entrySet()) {
                if (!e.getValue().isEmpty()) {
                    tables.get(e.getKey()).putConflictFree(tx, e.getValue());
                }
            }
            tm.commit(tx);
            committed = true;
        } finally {
            if (!committed && tx.state() == TransactionState.RUNNING) {
                tm.rollback(tx);
            }
        }
        pending.values().forEach(List::clear);
        pendingRows = 0;
    }
}
