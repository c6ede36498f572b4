package io.tidemark.bench.tpcc;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Reads what {@link TpccConsistency} checks, in one snapshot: scans WAREHOUSE, DISTRICT, ORDER, NEW_ORDER and
 * ORDER_LINE inside one Tidemark transaction and sums them up per district.
 */
public final class TpccAudit {

    private static final int SCAN_CACHING = 1000;

    private TpccAudit() {
    }

    /** The violated conditions (empty when all hold) of the tables as a transaction begun now sees them. */
    public static List<String> check(Connection connection, TransactionManager tm) throws IOException {
        Transaction tx = tm.begin();
        try {
            Map<Integer, Long> warehouseYtd = new TreeMap<>();
            scan(connection, tx, TpccSchema.Table.WAREHOUSE, TpccSchema.W_YTD, (key, row) ->
                    warehouseYtd.put(TpccSchema.idAt(key, 0), TpccSchema.longOf(row, TpccSchema.W_YTD)));
            Map<List<Integer>, Counts> districts = new TreeMap<>(TpccAudit::compareIds);
            scan(connection, tx, TpccSchema.Table.DISTRICT, null, (key, row) -> {
                Counts c = counts(districts, key);
                c.ytd = TpccSchema.longOf(row, TpccSchema.D_YTD);
                c.nextOrderId = TpccSchema.intOf(row, TpccSchema.D_NEXT_O_ID);
            });
            scan(connection, tx, TpccSchema.Table.ORDER, TpccSchema.O_OL_CNT, (key, row) -> {
                Counts c = counts(districts, key);
                c.maxOrderId = Math.max(c.maxOrderId, TpccSchema.idAt(key, 2));
                c.sumOrderLineCounts += TpccSchema.intOf(row, TpccSchema.O_OL_CNT);
            });
            scan(connection, tx, TpccSchema.Table.NEW_ORDER, TpccSchema.NO_MARKER, (key, row) -> {
                Counts c = counts(districts, key);
                int o = TpccSchema.idAt(key, 2);
                c.minNewOrderId = c.newOrders == 0 ? o : Math.min(c.minNewOrderId, o);
                c.maxNewOrderId = Math.max(c.maxNewOrderId, o);
                c.newOrders++;
            });
            scan(connection, tx, TpccSchema.Table.ORDER_LINE, TpccSchema.OL_I_ID,
                    (key, row) -> counts(districts, key).orderLines++);
            tm.commit(tx);
            List<TpccConsistency.DistrictFacts> facts = new ArrayList<>();
            districts.forEach((ids, c) -> facts.add(new TpccConsistency.DistrictFacts(ids.get(0), ids.get(1), c.ytd,
                    c.nextOrderId, c.maxOrderId, c.newOrders, c.minNewOrderId, c.maxNewOrderId,
                    c.sumOrderLineCounts, c.orderLines)));
            return TpccConsistency.violations(warehouseYtd, facts);
        } catch (IOException | RuntimeException e) {
            if (tx.state() == TransactionState.RUNNING) {
                tm.rollback(tx);
            }
            throw e;
        }
    }

    /** Every row of {@code table} the snapshot shows, with {@code qualifier} only (or every column when null). */
    private static void scan(Connection connection, Transaction tx, TpccSchema.Table table, byte[] qualifier,
                             BiConsumer<byte[], Result> each) throws IOException {
        Scan scan = new Scan().setCaching(SCAN_CACHING);
        if (qualifier == null) {
            scan.addFamily(TpccSchema.FAMILY);
        } else {
            scan.addColumn(TpccSchema.FAMILY, qualifier);
        }
        try (TTable t = new TTable(connection, table.hbaseName()); ResultScanner rows = t.getScanner(tx, scan)) {
            for (Result row : rows) {
                each.accept(row.getRow(), row);
            }
        }
    }

    private static Counts counts(Map<List<Integer>, Counts> districts, byte[] key) {
        return districts.computeIfAbsent(List.of(TpccSchema.idAt(key, 0), TpccSchema.idAt(key, 1)),
                ids -> new Counts());
    }

    private static int compareIds(List<Integer> a, List<Integer> b) {
        int byWarehouse = Integer.compare(a.get(0), b.get(0));
        return byWarehouse != 0 ? byWarehouse : Integer.compare(a.get(1), b.get(1));
    }

    /** Running sums of one district. */
    private static final class Counts {
        long ytd;
        int nextOrderId;
        int maxOrderId;
        long newOrders;
        int minNewOrderId;
        int maxNewOrderId;
        long sumOrderLineCounts;
        long orderLines;
    }
}
