package io.tidemark.cli;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Logs the process in to Kerberos from a keytab ({@code tidemark.security.principal}, {@code .keytab}) through
 * Hadoop's {@link UserGroupInformation}, before the command opens its HBase connection, and keeps the login fresh: a
 * background thread asks every {@code tidemark.security.relogin-interval-ms} whether the ticket is near its end and, if
 * so, logs in again from the keytab. A TSO thus outlives any ticket lifetime. Process-wide, like Hadoop's login.
 */
final class KerberosLogin implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KerberosLogin.class);

    private final @Nullable ScheduledExecutorService renewer;

    private KerberosLogin(@Nullable ScheduledExecutorService renewer) {
        this.renewer = renewer;
    }

    /**
     * Logs in when {@code conf} names a principal (else does nothing and returns a login that holds nothing).
     *
     * @throws io.tidemark.config.InvalidConfigurationException when the settings are incomplete or inconsistent
     * @throws IOException when the KDC refuses the login or cannot be reached
     */
    static KerberosLogin start(Configuration conf) throws IOException {
        KerberosSettings settings = new KerberosSettings(new TidemarkConfig(conf));
        if (!settings.enabled()) {
            if ("kerberos".equalsIgnoreCase(conf.get(KerberosSettings.HADOOP_AUTHENTICATION))) {
                LOG.info("HBase uses Kerberos and {} is not set: using the current user's credentials (kinit);"
                        + " a long-running TSO should log in from a keytab", TidemarkConfig.SECURITY_PRINCIPAL);
            }
            return new KerberosLogin(null);
        }
        UserGroupInformation.setConfiguration(conf);
        String principal = SecurityUtil.getServerPrincipal(settings.principal(),
                InetAddress.getLocalHost().getCanonicalHostName());
        Path keytab = Objects.requireNonNull(settings.keytab(), "an enabled login has a keytab");
        UserGroupInformation.loginUserFromKeytab(principal, keytab.toString());
        LOG.info("Logged in to Kerberos as {} from {}; checking the ticket every {} ms", principal,
                settings.keytab(), settings.reloginIntervalMs());
        ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tidemark-kerberos-relogin");
            thread.setDaemon(true);
            return thread;
        });
        renewer.scheduleWithFixedDelay(() -> relogin(principal), settings.reloginIntervalMs(),
                settings.reloginIntervalMs(), TimeUnit.MILLISECONDS);
        return new KerberosLogin(renewer);
    }

    private static void relogin(String principal) {
        try {
            // Logs in again only when the ticket is near its end; otherwise returns at once.
            UserGroupInformation.getLoginUser().checkTGTAndReloginFromKeytab();
        } catch (IOException | RuntimeException e) {
            LOG.warn("Renewing the Kerberos login of {} failed (tried again at the next check): {}", principal,
                    e.toString());
        }
    }

    /** Stops renewing; the login itself stays (Hadoop's login is process-wide). */
    @Override
    public void close() {
        if (renewer != null) {
            renewer.shutdownNow();
        }
    }
}
