package io.tidemark.client;

import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TableWritesTest {

    private final List<String> calls = new ArrayList<>();
    private final Table table = (Table) Proxy.newProxyInstance(Table.class.getClassLoader(),
            new Class<?>[] {Table.class}, (proxy, method, args) -> {
                calls.add(method.getName() + "(" + (args[0] instanceof List ? "list of " + ((List<?>) args[0]).size()
                        : args[0].getClass().getSimpleName()) + ")");
                return null;
            });

    @Test
    void aSingleWriteIsSentAsOneMutationNotAsABatch() throws Exception {
        TableWrites.put(table, List.of(put("a")));
        TableWrites.delete(table, new ArrayList<>(List.of(new Delete(Bytes.toBytes("a")))));

        assertEquals(List.of("put(Put)", "delete(Delete)"), calls);
    }

    @Test
    void severalWritesGoTogetherAsOneBatch() throws Exception {
        TableWrites.put(table, List.of(put("a"), put("b")));
        TableWrites.delete(table, new ArrayList<>(List.of(new Delete(Bytes.toBytes("a")),
                new Delete(Bytes.toBytes("b")))));

        assertEquals(List.of("put(list of 2)", "delete(list of 2)"), calls);
    }

    private static Put put(String row) {
        return new Put(Bytes.toBytes(row)).addColumn(Bytes.toBytes("f"), Bytes.toBytes("q"), Bytes.toBytes("v"));
    }
}
