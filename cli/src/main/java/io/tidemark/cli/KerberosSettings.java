package io.tidemark.cli;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.jspecify.annotations.Nullable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

/**
 * How a production command logs in to a Kerberos-secured HBase ({@code tidemark.security.*}), read and validated
 * once. Without a principal the command uses whatever the process already has (for example a ticket cache from
 * {@code kinit}), which suits short commands but not a TSO that runs for months.
 */
final class KerberosSettings {

    /** Hadoop's switch for Kerberos; the hbase-site.xml of a secured cluster sets it. */
    static final String HADOOP_AUTHENTICATION = "hadoop.security.authentication";

    private final String principal;
    private final @Nullable Path keytab;
    private final int reloginIntervalMs;

    KerberosSettings(TidemarkConfig config) {
        principal = Objects.toString(config.get(TidemarkConfig.SECURITY_PRINCIPAL), "");
        String keytabValue = Objects.toString(config.get(TidemarkConfig.SECURITY_KEYTAB), "");
        reloginIntervalMs = config.get(TidemarkConfig.SECURITY_RELOGIN_INTERVAL_MS);
        if (principal.isEmpty()) {
            if (!keytabValue.isEmpty()) {
                throw new InvalidConfigurationException(TidemarkConfig.SECURITY_PRINCIPAL, "", "the principal to"
                        + " log in as with " + TidemarkConfig.SECURITY_KEYTAB + " (for example tidemark/_HOST@REALM)");
            }
            keytab = null;
            return;
        }
        if (keytabValue.isEmpty()) {
            throw new InvalidConfigurationException(TidemarkConfig.SECURITY_KEYTAB, "", "the keytab file of "
                    + TidemarkConfig.SECURITY_PRINCIPAL + " (" + principal + ")");
        }
        keytab = Paths.get(keytabValue);
        if (!Files.isRegularFile(keytab) || !Files.isReadable(keytab)) {
            throw new InvalidConfigurationException(TidemarkConfig.SECURITY_KEYTAB, keytabValue,
                    "a readable keytab file");
        }
        String authentication = config.hadoopConfiguration().get(HADOOP_AUTHENTICATION, "simple");
        if (!"kerberos".equalsIgnoreCase(authentication)) {
            throw new InvalidConfigurationException(TidemarkConfig.SECURITY_PRINCIPAL, principal, "no principal, or "
                    + HADOOP_AUTHENTICATION + "=kerberos (and hbase.security.authentication=kerberos) in the"
                    + " hbase-site.xml of a secured cluster; it is " + authentication);
        }
    }

    /** Whether to log in from a keytab. */
    boolean enabled() {
        return !principal.isEmpty();
    }

    /** The principal as configured; {@code _HOST} stands for this machine's canonical name. */
    String principal() {
        return principal;
    }

    @Nullable Path keytab() {
        return keytab;
    }

    int reloginIntervalMs() {
        return reloginIntervalMs;
    }
}
