package io.tidemark.bench.tpcc;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The TPC-C tables as HBase tables, one each, with one family {@code f}; docs/tpcc.md describes the layout. A row key
 * is the table's primary key, each id a 4-byte big-endian int (ids are positive, so byte order is numeric order):
 * rows sort by warehouse, then district, then id, and a district's orders, new-orders and order lines are one
 * contiguous range. HISTORY has no primary key in TPC-C; its rows are keyed by warehouse, district, customer and the
 * start timestamp of the Payment that wrote them (unique). Money is a long of cents, rates an int of 1/10,000.
 */
public final class TpccSchema {

    public static final String FAMILY_NAME = "f";
    public static final byte[] FAMILY = Bytes.toBytes(FAMILY_NAME);

    // WAREHOUSE
    static final byte[] W_TAX = q("w_tax");
    static final byte[] W_YTD = q("w_ytd");
    // DISTRICT
    static final byte[] D_TAX = q("d_tax");
    static final byte[] D_YTD = q("d_ytd");
    static final byte[] D_NEXT_O_ID = q("d_next_o_id");
    // CUSTOMER
    static final byte[] C_LAST = q("c_last");
    static final byte[] C_CREDIT = q("c_credit");
    static final byte[] C_DISCOUNT = q("c_discount");
    static final byte[] C_BALANCE = q("c_balance");
    static final byte[] C_YTD_PAYMENT = q("c_ytd_payment");
    static final byte[] C_PAYMENT_CNT = q("c_payment_cnt");
    // ITEM
    static final byte[] I_NAME = q("i_name");
    static final byte[] I_PRICE = q("i_price");
    // STOCK
    static final byte[] S_QUANTITY = q("s_quantity");
    static final byte[] S_YTD = q("s_ytd");
    static final byte[] S_ORDER_CNT = q("s_order_cnt");
    static final byte[] S_REMOTE_CNT = q("s_remote_cnt");
    static final byte[] S_DIST_INFO = q("s_dist_info");
    // ORDER
    static final byte[] O_C_ID = q("o_c_id");
    static final byte[] O_ENTRY_D = q("o_entry_d");
    static final byte[] O_CARRIER_ID = q("o_carrier_id");
    static final byte[] O_OL_CNT = q("o_ol_cnt");
    static final byte[] O_ALL_LOCAL = q("o_all_local");
    // NEW_ORDER: the key is all there is; one marker column holds the row.
    static final byte[] NO_MARKER = q("no");
    // ORDER_LINE
    static final byte[] OL_I_ID = q("ol_i_id");
    static final byte[] OL_SUPPLY_W_ID = q("ol_supply_w_id");
    static final byte[] OL_QUANTITY = q("ol_quantity");
    static final byte[] OL_AMOUNT = q("ol_amount");
    static final byte[] OL_DIST_INFO = q("ol_dist_info");
    // HISTORY
    static final byte[] H_AMOUNT = q("h_amount");
    static final byte[] H_DATE = q("h_date");

    private TpccSchema() {
    }

    /** What every TPC-C table's name starts with: one set of tables per HBase cluster, so one run at a time. */
    public static final String TABLE_PREFIX = "tpcc_";

    /** The tables, by TPC-C's names. */
    public enum Table {
        WAREHOUSE, DISTRICT, CUSTOMER, HISTORY, ITEM, STOCK, ORDER, NEW_ORDER, ORDER_LINE;

        /** Every table's {@link #hbaseName()}. */
        public static List<TableName> hbaseNames() {
            return Arrays.stream(values()).map(Table::hbaseName).toList();
        }

        /** The HBase table: {@code tpcc_<name>} in the default namespace. */
        public TableName hbaseName() {
            return TableName.valueOf(TABLE_PREFIX + name().toLowerCase(Locale.ROOT));
        }
    }

    /** A row key of 4-byte big-endian ids. */
    public static byte[] key(int... ids) {
        ByteBuffer key = ByteBuffer.allocate(ids.length * Integer.BYTES);
        for (int id : ids) {
            key.putInt(id);
        }
        return key.array();
    }

    /** A HISTORY key: warehouse, district, customer, then the Payment's start timestamp. */
    static byte[] historyKey(int w, int d, int c, long startTimestamp) {
        return ByteBuffer.allocate(3 * Integer.BYTES + Long.BYTES).putInt(w).putInt(d).putInt(c)
                .putLong(startTimestamp).array();
    }

    /** The id at {@code position} (0 = first) of a row key. */
    static int idAt(byte[] key, int position) {
        return Bytes.toInt(key, position * Integer.BYTES);
    }

    static int intOf(Result row, byte[] qualifier) {
        return Bytes.toInt(value(row, qualifier));
    }

    static long longOf(Result row, byte[] qualifier) {
        return Bytes.toLong(value(row, qualifier));
    }

    private static byte[] value(Result row, byte[] qualifier) {
        byte[] value = row.getValue(FAMILY, qualifier);
        if (value == null) {
            throw new IllegalStateException("row " + Bytes.toStringBinary(row.getRow()) + " has no column "
                    + Bytes.toString(qualifier));
        }
        return value;
    }

    private static byte[] q(String name) {
        return Bytes.toBytes(name);
    }
}
