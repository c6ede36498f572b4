package io.tidemark.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void loadReadsTidemarkKeysFromHbaseSiteUnderTidemarkSite(@TempDir Path dir) throws IOException {
        siteFile(dir.resolve(TidemarkConfig.HBASE_SITE_FILE), TidemarkConfig.CLIENT_TSO_ADDRESS, "tso-a:1",
                TidemarkConfig.COMMIT_TABLE, "from:hbase");
        siteFile(dir.resolve(TidemarkConfig.SITE_FILE), TidemarkConfig.CLIENT_TSO_ADDRESS, "tso-b:2");
        try (URLClassLoader loader = classpathOf(dir)) {
            TidemarkConfig config = TidemarkConfig.load(loader);

            assertEquals("from:hbase", config.getString(TidemarkConfig.COMMIT_TABLE, "unset"));
            assertEquals("tso-b:2", config.getString(TidemarkConfig.CLIENT_TSO_ADDRESS, "unset"));
            assertEquals(List.of(TidemarkConfig.HBASE_SITE_FILE, TidemarkConfig.SITE_FILE),
                    TidemarkConfig.siteFilesOn(loader));
        }
    }

    @Test
    void loadWithoutSiteFilesFindsNoneAndUsesDefaults(@TempDir Path dir) throws IOException {
        try (URLClassLoader loader = classpathOf(dir)) {
            assertEquals(List.of(), TidemarkConfig.siteFilesOn(loader));
            assertEquals(TidemarkConfig.COMMIT_TABLE_DEFAULT, TidemarkConfig.load(loader)
                    .getString(TidemarkConfig.COMMIT_TABLE, TidemarkConfig.COMMIT_TABLE_DEFAULT));
        }
    }

    /** A class loader that sees only {@code dir}, not the test classpath's own site files. */
    private static URLClassLoader classpathOf(Path dir) throws IOException {
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    private static void siteFile(Path file, String... keysAndValues) throws IOException {
        StringBuilder xml = new StringBuilder("<configuration>\n");
        for (int i = 0; i < keysAndValues.length; i += 2) {
            xml.append("  <property><name>").append(keysAndValues[i]).append("</name><value>")
                    .append(keysAndValues[i + 1]).append("</value></property>\n");
        }
        Files.writeString(file, xml.append("</configuration>\n").toString());
    }
}
