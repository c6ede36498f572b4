package io.tidemark.config;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

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
}
