package io.tidemark.bench;

import io.tidemark.bench.report.ResultTable;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ResultTableTest {

    @Test
    void csvQuotesFieldsWithCommasAndQuotes() {
        ResultTable table = new ResultTable("scenario", "value");
        table.addRow("a, \"b\"", 1);

        assertEquals("scenario,value\n\"a, \"\"b\"\"\",1\n", table.toCsv());
    }

    @Test
    void rowWithTheWrongNumberOfValuesIsRefused() {
        ResultTable table = new ResultTable("a", "b");

        assertThrows(IllegalArgumentException.class, () -> table.addRow("only one"));
    }

    @Test
    void textAlignsColumns() {
        ResultTable table = new ResultTable("x", "y");
        table.addRow("long value", 2);

        assertEquals("x           y\nlong value  2\n", table.toText());
    }

    @Test
    void withColumnAddsAConstantLastColumnAndLeavesTheTableAsItWas() {
        ResultTable table = new ResultTable("scenario", "p50_ms");
        table.addRow("raw", "0.35");

        assertEquals("scenario,p50_ms,storage\nraw,0.35,hdfs\n", table.withColumn("storage", "hdfs").toCsv());
        assertEquals("scenario,p50_ms\nraw,0.35\n", table.toCsv());
    }
}
