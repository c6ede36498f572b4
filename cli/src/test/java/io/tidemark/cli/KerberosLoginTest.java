package io.tidemark.cli;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Date;
import java.util.Properties;
import javax.security.auth.Subject;
import javax.security.auth.kerberos.KerberosTicket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: the TSO and the sweeper log in from a keytab and keep the login alive, against a real KDC (Hadoop's
 * MiniKdc) with tickets that live a few seconds.
 */
class KerberosLoginTest {

    private static final long TICKET_LIFETIME_MS = 8_000;

    @TempDir
    static Path work;

    private static MiniKdc kdc;
    private static File keytab;

    @BeforeAll
    static void startKdc() throws Exception {
        Properties kdcConf = MiniKdc.createConf();
        kdcConf.setProperty(MiniKdc.MAX_TICKET_LIFETIME, Long.toString(TICKET_LIFETIME_MS / 1000));
        kdcConf.setProperty(MiniKdc.MIN_TICKET_LIFETIME, "1");
        kdc = new MiniKdc(kdcConf, work.toFile());
        kdc.start();
        keytab = work.resolve("tidemark.keytab").toFile();
        kdc.createPrincipal(keytab, "tidemark/localhost");
    }

    @AfterAll
    static void stopKdc() {
        if (kdc != null) {
            kdc.stop();
        }
    }

    private static Configuration secured() {
        Configuration conf = new Configuration(false);
        conf.set(KerberosSettings.HADOOP_AUTHENTICATION, "kerberos");
        // Let the renewal log in again as soon as the ticket is near its end, however short-lived the test tickets.
        conf.set("hadoop.kerberos.min.seconds.before.relogin", "1");
        conf.set(TidemarkConfig.SECURITY_PRINCIPAL.key(), "tidemark/localhost@" + kdc.getRealm());
        conf.set(TidemarkConfig.SECURITY_KEYTAB.key(), keytab.getAbsolutePath());
        conf.set(TidemarkConfig.SECURITY_RELOGIN_INTERVAL_MS.key(), "1000");
        return conf;
    }

    @Test
    void theProcessLogsInFromTheKeytabAndStaysLoggedInPastTheTicketLifetime() throws Exception {
        try (KerberosLogin login = KerberosLogin.start(secured())) {
            UserGroupInformation user = UserGroupInformation.getLoginUser();
            assertEquals("tidemark/localhost@" + kdc.getRealm(), user.getUserName());
            assertTrue(user.isFromKeytab());
            Date firstTicketEnds = ticketEnd(user);

            // Wait past the end of the first ticket: the renewal must have logged in again meanwhile.
            Thread.sleep(Math.max(0, firstTicketEnds.getTime() - System.currentTimeMillis()) + 1500);

            Date now = new Date();
            Date currentTicketEnds = ticketEnd(UserGroupInformation.getLoginUser());
            assertTrue(currentTicketEnds.after(now), "the login holds a valid ticket after the first one ended ("
                    + firstTicketEnds + "), ending " + currentTicketEnds);
        }
    }

    @Test
    void aPrincipalNeedsKerberosAuthenticationAndAKeytab() {
        Configuration simple = secured();
        simple.set(KerberosSettings.HADOOP_AUTHENTICATION, "simple");
        InvalidConfigurationException notKerberos = assertThrows(InvalidConfigurationException.class,
                () -> KerberosLogin.start(simple));
        assertTrue(notKerberos.getMessage().contains("hadoop.security.authentication=kerberos"),
                notKerberos.getMessage());

        Configuration noKeytab = secured();
        noKeytab.unset(TidemarkConfig.SECURITY_KEYTAB.key());
        assertTrue(assertThrows(InvalidConfigurationException.class, () -> KerberosLogin.start(noKeytab))
                .getMessage().contains(TidemarkConfig.SECURITY_KEYTAB.key()));

        Configuration missingKeytab = secured();
        missingKeytab.set(TidemarkConfig.SECURITY_KEYTAB.key(), work.resolve("nowhere.keytab").toString());
        assertTrue(assertThrows(InvalidConfigurationException.class, () -> KerberosLogin.start(missingKeytab))
                .getMessage().contains("a readable keytab file"));
    }

    /** When the login's ticket-granting ticket ends. */
    private static Date ticketEnd(UserGroupInformation user) throws Exception {
        return user.doAs((PrivilegedExceptionAction<Date>) () -> {
            Subject subject = Subject.getSubject(java.security.AccessController.getContext());
            for (KerberosTicket ticket : subject.getPrivateCredentials(KerberosTicket.class)) {
                if (ticket.getServer().getName().startsWith("krbtgt/")) {
                    return ticket.getEndTime();
                }
            }
            throw new AssertionError("no ticket-granting ticket in " + subject);
        });
    }
}
