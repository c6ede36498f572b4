package io.tidemark.writeset;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class WriteSetIdsTest {

    private static byte[] b(String s) {
        return Bytes.toBytes(s);
    }

    @Test
    void sameCellSameId() {
        assertEquals(WriteSetIds.cell(b("t"), b("r"), b("f"), b("q")), WriteSetIds.cell(b("t"), b("r"), b("f"), b("q")));
    }

    @Test
    void partBoundariesMatter() {
        assertNotEquals(WriteSetIds.cell(b("t"), b("ab"), b("f"), b("q")),
                WriteSetIds.cell(b("t"), b("a"), b("bf"), b("q")));
        assertNotEquals(WriteSetIds.row(b("t1"), b("r")), WriteSetIds.row(b("t"), b("1r")));
    }

    @Test
    void rowAndCellIdsDiffer() {
        assertNotEquals(WriteSetIds.row(b("t"), b("r")), WriteSetIds.cell(b("t"), b("r"), b(""), b("")));
    }
}
