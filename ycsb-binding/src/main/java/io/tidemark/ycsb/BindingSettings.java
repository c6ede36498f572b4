package io.tidemark.ycsb;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.File;
import java.util.Locale;
import java.util.Properties;

/**
 * The binding's settings, read from YCSB's properties ({@code -p} and {@code -P} files) and checked once, so that a
 * mistake stops the run at start-up with a message that names the property, instead of failing every operation.
 */
final class BindingSettings {

    /** YCSB's own table property (CoreWorkload uses the same key and default). */
    static final String TABLE = "table";
    static final String TABLE_DEFAULT = "usertable";
    /** The column family holding YCSB's fields; the name YCSB's HBase bindings use. */
    static final String COLUMN_FAMILY = "columnfamily";
    static final String COLUMN_FAMILY_DEFAULT = "family";
    static final String CREATE_TABLE = "tidemark.createtable";
    /** Path of an hbase-site.xml to read, on top of one found on the classpath. */
    static final String HBASE_SITE = "hbase.site";
    /** Shorthand for {@link TidemarkConfig#CLIENT_TSO_ADDRESS}, as printed by {@code ./tidemark server}. */
    static final String TSO_ADDRESS = "tidemark.tso.address";

    private final BindingMode mode;
    private final TableName table;
    private final byte[] family;
    private final boolean createTable;
    private final Configuration hbaseConfiguration;
    private final TidemarkConfig tidemarkConfig;

    private BindingSettings(Properties p) {
        this.mode = BindingMode.parse(p.getProperty(BindingMode.PROPERTY));
        this.table = tableName(nonEmpty(p, TABLE, TABLE_DEFAULT));
        this.family = Bytes.toBytes(nonEmpty(p, COLUMN_FAMILY, COLUMN_FAMILY_DEFAULT));
        this.createTable = bool(p, CREATE_TABLE, false);
        this.hbaseConfiguration = hbaseConfiguration(p);
        this.tidemarkConfig = tidemarkConfig(p, hbaseConfiguration);
    }

    /**
     * @throws IllegalArgumentException naming the property when a value is malformed, and what it accepts
     */
    static BindingSettings from(Properties properties) {
        return new BindingSettings(properties);
    }

    BindingMode mode() {
        return mode;
    }

    TableName table() {
        return table;
    }

    byte[] family() {
        return family;
    }

    boolean createTable() {
        return createTable;
    }

    /** Classpath hbase-site.xml, then {@value #HBASE_SITE}, then every {@code hbase.*}/{@code zookeeper.*} property. */
    Configuration hbaseConfiguration() {
        return hbaseConfiguration;
    }

    /**
     * The HBase configuration, then tidemark-site.xml from the classpath, then every {@code tidemark.*} property, with
     * {@value #TSO_ADDRESS} as {@code tidemark.client.tso.address}.
     */
    TidemarkConfig tidemarkConfig() {
        return tidemarkConfig;
    }

    private static Configuration hbaseConfiguration(Properties p) {
        Configuration conf = HBaseConfiguration.create();
        String site = p.getProperty(HBASE_SITE);
        if (site != null) {
            File file = new File(site.trim());
            if (!file.isFile()) {
                throw new IllegalArgumentException(HBASE_SITE + " is '" + site + "', which is not a readable file;"
                        + " give the path of an hbase-site.xml, or set hbase.zookeeper.quorum and"
                        + " hbase.zookeeper.property.clientPort instead");
            }
            conf.addResource(new Path(file.getAbsoluteFile().toURI()));
        }
        for (String key : p.stringPropertyNames()) {
            if ((key.startsWith("hbase.") || key.startsWith("zookeeper.")) && !key.equals(HBASE_SITE)) {
                conf.set(key, p.getProperty(key).trim());
            }
        }
        return conf;
    }

    private static TidemarkConfig tidemarkConfig(Properties p, Configuration hbase) {
        Configuration conf = new Configuration(hbase);
        conf.addResource(TidemarkConfig.SITE_FILE);
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("tidemark.")) {
                conf.set(key, p.getProperty(key).trim());
            }
        }
        String address = p.getProperty(TSO_ADDRESS);
        if (address != null) {
            conf.set(TidemarkConfig.CLIENT_TSO_ADDRESS.key(), address.trim());
        }
        TidemarkConfig config = new TidemarkConfig(conf);
        // Checked here so that a typo stops the run before any thread starts.
        try {
            config.get(TidemarkConfig.CLIENT_TSO_ADDRESS);
        } catch (InvalidConfigurationException e) {
            throw new IllegalArgumentException(e.getMessage() + " (the binding takes it from " + TSO_ADDRESS + ")", e);
        }
        return config;
    }

    private static TableName tableName(String name) {
        try {
            return TableName.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(TABLE + " is '" + name + "', which is not a valid HBase table name: "
                    + e.getMessage(), e);
        }
    }

    private static String nonEmpty(Properties p, String key, String defaultValue) {
        String value = p.getProperty(key, defaultValue).trim();
        if (value.isEmpty()) {
            throw new IllegalArgumentException(key + " is empty; give a name (default " + defaultValue + ")");
        }
        return value;
    }

    private static boolean bool(Properties p, String key, boolean defaultValue) {
        String value = p.getProperty(key);
        if (value == null) {
            return defaultValue;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(key + " is '" + value + "'; use true or false");
        }
    }
}
