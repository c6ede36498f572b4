package io.tidemark.ycsb;

import io.tidemark.config.TidemarkConfig;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BindingSettingsTest {

    @Test
    void defaultsAreGenericOnYcsbsUsertable() {
        BindingSettings s = BindingSettings.from(new Properties());
        assertEquals(BindingMode.GENERIC, s.mode());
        assertEquals("usertable", s.table().getNameAsString());
        assertEquals("family", new String(s.family()));
        assertFalse(s.createTable());
    }

    @Test
    void eachModeIsChosenByItsName() {
        assertEquals(BindingMode.RAW, BindingSettings.from(props(BindingMode.PROPERTY, "raw")).mode());
        assertEquals(BindingMode.BATCHED, BindingSettings.from(props(BindingMode.PROPERTY, " Batched ")).mode());
        assertEquals(BindingMode.GENERIC, BindingSettings.from(props(BindingMode.PROPERTY, "generic")).mode());
        assertEquals(BindingMode.FASTPATH, BindingSettings.from(props(BindingMode.PROPERTY, "fastpath")).mode());
    }

    @Test
    void anUnknownModeIsRefusedWithTheAcceptedOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindingSettings.from(props(BindingMode.PROPERTY, "fast")));
        assertTrue(e.getMessage().contains("'fast' is not a tidemark.mode value"), e.getMessage());
        assertTrue(e.getMessage().contains("generic, batched, fastpath or raw"), e.getMessage());
    }

    @Test
    void aBadModeFailsTheClientsInitWithTheReason() {
        TidemarkClient client = new TidemarkClient();
        client.setProperties(props(BindingMode.PROPERTY, "transactional"));
        DBException e = assertThrows(DBException.class, client::init);
        assertTrue(e.getMessage().contains("'transactional' is not a tidemark.mode value"), e.getMessage());
        assertEquals(null, TidemarkClient.onCurrentThread());
    }

    @Test
    void createTableTakesOnlyTrueOrFalse() {
        assertTrue(BindingSettings.from(props(BindingSettings.CREATE_TABLE, "TRUE")).createTable());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindingSettings.from(props(BindingSettings.CREATE_TABLE, "yes")));
        assertTrue(e.getMessage().contains("tidemark.createtable is 'yes'; use true or false"), e.getMessage());
    }

    @Test
    void aMissingHbaseSiteFileIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindingSettings.from(props(BindingSettings.HBASE_SITE, "/no/such/hbase-site.xml")));
        assertTrue(e.getMessage().contains("hbase.site"), e.getMessage());
    }

    @Test
    void aMalformedTsoAddressIsRefusedNamingTheBindingProperty() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindingSettings.from(props(BindingSettings.TSO_ADDRESS, "localhost")));
        assertTrue(e.getMessage().contains(BindingSettings.TSO_ADDRESS), e.getMessage());
    }

    @Test
    void anInvalidTableNameIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BindingSettings.from(props(BindingSettings.TABLE, "user table")));
        assertTrue(e.getMessage().contains("table is 'user table'"), e.getMessage());
    }

    @Test
    void hbaseAndTidemarkPropertiesReachTheirConfigurations() {
        Properties p = props("hbase.zookeeper.quorum", "zk1,zk2");
        p.setProperty("hbase.zookeeper.property.clientPort", "2222");
        p.setProperty(BindingSettings.TSO_ADDRESS, "tso.example:1234");
        p.setProperty(TidemarkConfig.COMMIT_TABLE.key(), "bench:commits");
        p.setProperty(TidemarkConfig.CLIENT_POST_COMMIT.key(), "async");
        BindingSettings s = BindingSettings.from(p);
        assertEquals("zk1,zk2", s.hbaseConfiguration().get("hbase.zookeeper.quorum"));
        assertEquals("2222", s.hbaseConfiguration().get("hbase.zookeeper.property.clientPort"));
        TidemarkConfig config = s.tidemarkConfig();
        assertEquals("tso.example:1234", config.get(TidemarkConfig.CLIENT_TSO_ADDRESS).toString());
        assertEquals("bench:commits", config.get(TidemarkConfig.COMMIT_TABLE).getNameAsString());
        assertEquals("async", config.get(TidemarkConfig.CLIENT_POST_COMMIT));
        assertEquals("zk1,zk2", config.hadoopConfiguration().get("hbase.zookeeper.quorum"));
    }

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }
}
