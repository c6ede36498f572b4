package io.tidemark.config;

import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TidemarkConfigTest {

    private static TidemarkConfig with(Setting<?> setting, String value) {
        Configuration conf = new Configuration(false);
        conf.set(setting.key(), value);
        return new TidemarkConfig(conf);
    }

    @Test
    void defaultsApplyWhenUnset() {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        assertEquals(54758, config.get(TidemarkConfig.TSO_PORT));
        assertEquals(TableName.valueOf("tidemark", "commits"), config.get(TidemarkConfig.COMMIT_TABLE));
        assertNull(config.get(TidemarkConfig.CLIENT_TSO_ADDRESS), "no default: the client follows the lease");
        assertNull(config.getIfSet(TidemarkConfig.TSO_COMMIT_MODE), "unset: the TSO follows the cluster");
        assertEquals(CommitMode.LOW_LATENCY, config.get(TidemarkConfig.TSO_COMMIT_MODE));
    }

    @Test
    void outOfRangeNumberNamesKeyAndRange() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_PORT, "70000").get(TidemarkConfig.TSO_PORT));
        assertEquals("invalid value '70000' for tidemark.tso.port: expected a whole number from 0 to 65535",
                e.getMessage());
    }

    @Test
    void nonNumberIsRefused() {
        assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_PORT, "abc").get(TidemarkConfig.TSO_PORT));
    }

    @Test
    void wholeNumbersMayGroupDigitsWithUnderscores() {
        assertEquals(4_194_304, with(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, " 4_194_304 ")
                .get(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES));
    }

    @Test
    void unknownChoiceListsTheAllowedOnes() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_COMMIT_MODE, "fast").get(TidemarkConfig.TSO_COMMIT_MODE));
        assertTrue(e.getMessage().contains("low-latency, batched"), e.getMessage());
        assertEquals(CommitMode.BATCHED, with(TidemarkConfig.TSO_COMMIT_MODE, "Batched")
                .get(TidemarkConfig.TSO_COMMIT_MODE), "choices are case-insensitive");
    }

    @Test
    void blankIsUnsetOnlyWhereNothingIsAlsoAValue() {
        assertEquals(false, with(TidemarkConfig.TSO_TLS_ENABLED, " ").get(TidemarkConfig.TSO_TLS_ENABLED));
        assertEquals(List.of(), with(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, "")
                .get(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        assertNull(with(TidemarkConfig.CLIENT_TSO_ADDRESS, "").get(TidemarkConfig.CLIENT_TSO_ADDRESS));
        assertFalse(with(TidemarkConfig.CLIENT_TSO_ADDRESS, " ").isSet(TidemarkConfig.CLIENT_TSO_ADDRESS));
        assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.TSO_PORT, " ").get(TidemarkConfig.TSO_PORT));
        assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.COMMIT_TABLE, "").get(TidemarkConfig.COMMIT_TABLE));
    }

    @Test
    void hostAndPortParsesIpv6AndRefusesGarbage() {
        HostAndPort parsed = with(TidemarkConfig.CLIENT_TSO_ADDRESS, "[::1]:9000")
                .get(TidemarkConfig.CLIENT_TSO_ADDRESS);
        assertEquals("::1", parsed.host());
        assertEquals(9000, parsed.port());
        assertThrows(InvalidConfigurationException.class, () -> with(TidemarkConfig.CLIENT_TSO_ADDRESS, "nohost")
                .get(TidemarkConfig.CLIENT_TSO_ADDRESS));
    }

    @Test
    void tableNameListsAreParsedAndBadNamesNamed() {
        assertEquals(List.of(), new TidemarkConfig(new Configuration(false))
                .get(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        assertEquals(List.of(TableName.valueOf("ns:a"),
                        TableName.valueOf("b")),
                with(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, " ns:a , b ,").get(
                        TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> with(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, "ok,bad name").get(
                        TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES));
        assertTrue(e.getMessage().contains("bad name") && e.getMessage().contains(
                TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES.key()), e.getMessage());
    }

    @Test
    void everyDefaultIsAValueItsSettingAccepts() {
        for (Setting<?> setting : TidemarkConfig.all()) {
            if (setting.defaultValue() != null) {
                assertEquals(setting.defaultValue(), setting.parse(setting.defaultInSiteFile()), setting.key());
            }
        }
    }

    @Test
    void everyKeyIsDeclaredOnceWithADescription() {
        Set<String> keys = new HashSet<>();
        for (Setting<?> setting : TidemarkConfig.all()) {
            assertTrue(keys.add(setting.key()), setting + " twice");
            assertTrue(setting.description().endsWith("."), setting + ": " + setting.description());
        }
        assertEquals(78, keys.size());
    }

    @Test
    void loadReadsTidemarkKeysFromHbaseSiteUnderTidemarkSite(@TempDir Path dir) throws IOException {
        siteFile(dir.resolve(TidemarkConfig.HBASE_SITE_FILE), TidemarkConfig.CLIENT_TSO_ADDRESS, "tso-a:1",
                TidemarkConfig.COMMIT_TABLE, "from:hbase");
        siteFile(dir.resolve(TidemarkConfig.SITE_FILE), TidemarkConfig.CLIENT_TSO_ADDRESS, "tso-b:2");
        try (URLClassLoader loader = classpathOf(dir)) {
            TidemarkConfig config = TidemarkConfig.load(loader);

            assertEquals(TableName.valueOf("from:hbase"), config.get(TidemarkConfig.COMMIT_TABLE));
            assertEquals("tso-b:2", config.get(TidemarkConfig.CLIENT_TSO_ADDRESS).toString());
            assertEquals(List.of(TidemarkConfig.HBASE_SITE_FILE, TidemarkConfig.SITE_FILE),
                    TidemarkConfig.siteFilesOn(loader));
        }
    }

    @Test
    void loadWithoutSiteFilesFindsNoneAndUsesDefaults(@TempDir Path dir) throws IOException {
        try (URLClassLoader loader = classpathOf(dir)) {
            assertEquals(List.of(), TidemarkConfig.siteFilesOn(loader));
            assertEquals(TidemarkConfig.COMMIT_TABLE.defaultValue(), TidemarkConfig.load(loader)
                    .get(TidemarkConfig.COMMIT_TABLE));
        }
    }

    /** A class loader that sees only {@code dir}, not the test classpath's own site files. */
    private static URLClassLoader classpathOf(Path dir) throws IOException {
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    private static void siteFile(Path file, Object... keysAndValues) throws IOException {
        StringBuilder xml = new StringBuilder("<configuration>\n");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            xml.append("  <property><name>").append(keysAndValues[i]).append("</name><value>")
                    .append(keysAndValues[i + 1]).append("</value></property>\n");
        }
        Files.writeString(file, xml.append("</configuration>\n").toString());
    }
}
