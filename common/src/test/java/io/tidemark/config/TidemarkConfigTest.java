package io.tidemark.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TidemarkConfigTest {

    private static TidemarkConfig with(String key, String value) {
        Configuration conf = new Configuration(false);
        conf.set(key, value);
        return new TidemarkConfig(conf);
    }

    @Test
    void defaultsApplyWhenUnset() {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        assertEquals(TidemarkConfig.TSO_PORT_DEFAULT,
                config.getInt(TidemarkConfig.TSO_PORT, TidemarkConfig.TSO_PORT_DEFAULT, 0, 65535));
    }

    @Test
    void outOfRangeNumberNamesKeyAndRange() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_PORT, "70000").getInt(TidemarkConfig.TSO_PORT, 1, 0, 65535));
        assertTrue(e.getMessage().contains(TidemarkConfig.TSO_PORT));
        assertTrue(e.getMessage().contains("0 to 65535"));
    }

    @Test
    void nonNumberIsRefused() {
        assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_PORT, "abc").getInt(TidemarkConfig.TSO_PORT, 1, 0, 65535));
    }

    @Test
    void unknownChoiceListsTheAllowedOnes() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_COMMIT_MODE, "fast").getChoice(TidemarkConfig.TSO_COMMIT_MODE,
                        "low-latency", "low-latency", "batched"));
        assertTrue(e.getMessage().contains("low-latency, batched"));
    }

    @Test
    void hostAndPortParsesIpv6AndRefusesGarbage() {
        HostAndPort parsed = with(TidemarkConfig.CLIENT_TSO_ADDRESS, "[::1]:9000")
                .getHostAndPort(TidemarkConfig.CLIENT_TSO_ADDRESS, "localhost:1");
        assertEquals("::1", parsed.host());
        assertEquals(9000, parsed.port());
        assertThrows(InvalidConfigurationException.class, () -> with(TidemarkConfig.CLIENT_TSO_ADDRESS, "nohost")
                .getHostAndPort(TidemarkConfig.CLIENT_TSO_ADDRESS, "localhost:1"));
    }

    @Test
    void tableNameListsAreParsedAndBadNamesNamed() {
        assertEquals(List.of(), new TidemarkConfig(new Configuration(false))
                .getTableNames(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        assertEquals(List.of(TableName.valueOf("ns:a"),
                        TableName.valueOf("b")),
                with(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, " ns:a , b ,").getTableNames(
                        TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, "ok,bad name").getTableNames(
                        TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        assertTrue(e.getMessage().contains("bad name") && e.getMessage().contains(
                TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES), e.getMessage());
    }
}
