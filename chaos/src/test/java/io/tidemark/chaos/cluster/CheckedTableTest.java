package io.tidemark.chaos.cluster;

import io.tidemark.chaos.history.KeySpace;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The checked table's regions: scans cross several, and one of them can never hold a row. */
class CheckedTableTest {

    @Test
    void sixteenRowsGetFiveRegionsOneOfThemAlwaysEmpty() {
        List<String> splits = CheckedTable.splitPoints(KeySpace.of(16)).stream().map(Bytes::toString)
                .collect(Collectors.toList());
        assertEquals(List.of("r04", "r07a", "r07b", "r12"), splits);
    }
}
