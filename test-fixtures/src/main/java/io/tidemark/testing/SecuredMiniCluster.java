package io.tidemark.testing;

import io.tidemark.embedded.EmbeddedHBaseSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * An HBase mini-cluster secured as a production one is: a KDC (Hadoop's {@link MiniKdc}), Kerberos authentication of
 * every client and server, and optionally HBase authorization ({@code AccessController} on the master, the regions and
 * the region servers, coprocessor calls checked too). Master and region servers log in as the service principal
 * {@code hbase/<host>}, HBase's superuser; each user logs in from a keytab of its own and gets a connection of its
 * own, so one JVM can act as several principals.
 *
 * <p>Hadoop's login is process-wide: a JVM runs at most one of these (the integration tests tagged
 * {@code secure-cluster} run in JVMs of their own). Starting one takes about as long as the plain mini-cluster;
 * {@link #close} shuts the cluster and the KDC down.
 */
public final class SecuredMiniCluster implements AutoCloseable {

    /** HBase's service principal's name: its short name is HBase's superuser. */
    public static final String SERVICE = "hbase";
    /** HBase's authorization coprocessor, for the master, every region and every region server. */
    private static final String ACCESS_CONTROLLER = "org.apache.hadoop.hbase.security.access.AccessController";
    private static final TableName ACL_TABLE = TableName.valueOf("hbase", "acl");

    private final Path work;
    private final MiniKdc kdc;
    private final String host;
    private final String servicePrincipal;
    private final boolean authorization;
    private final Map<String, File> keytabs = new HashMap<>();
    private final Map<String, Connection> connections = new HashMap<>();
    private HBaseTestingUtility hbase;

    private SecuredMiniCluster(Path work, MiniKdc kdc, boolean authorization) throws IOException {
        this.work = work;
        this.kdc = kdc;
        this.authorization = authorization;
        this.host = InetAddress.getLocalHost().getCanonicalHostName();
        this.servicePrincipal = SERVICE + "/_HOST@" + kdc.getRealm();
    }

    /**
     * Starts a KDC and a Kerberos-authenticated HBase (one region server) under {@code work}.
     *
     * @param authorization whether HBase checks permissions (ACLs): then only the superuser may do anything until
     *                      it grants
     */
    public static SecuredMiniCluster start(Path work, boolean authorization) throws Exception {
        MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), work.resolve("kdc").toFile());
        kdc.start();
        SecuredMiniCluster cluster = new SecuredMiniCluster(work, kdc, authorization);
        try {
            cluster.startHBase();
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startHBase() throws Exception {
        File serviceKeytab = addUser(SERVICE);
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf);
        securitySettings().forEach(conf::set);
        conf.set("hbase.master.keytab.file", serviceKeytab.getAbsolutePath());
        conf.set("hbase.regionserver.keytab.file", serviceKeytab.getAbsolutePath());
        if (authorization) {
            conf.setBoolean("hbase.security.authorization", true);
            conf.setBoolean("hbase.security.exec.permission.checks", true);
            conf.set("hbase.coprocessor.master.classes", ACCESS_CONTROLLER);
            conf.set("hbase.coprocessor.region.classes", ACCESS_CONTROLLER);
            conf.set("hbase.coprocessor.regionserver.classes", ACCESS_CONTROLLER);
        }
        UserGroupInformation.setConfiguration(conf);
        UserGroupInformation.loginUserFromKeytab(SERVICE + "/localhost@" + kdc.getRealm(),
                serviceKeytab.getAbsolutePath());
        System.setProperty("test.build.data.basedirectory", work.resolve("hbase").toString());
        hbase = new HBaseTestingUtility(conf);
        hbase.startMiniZKCluster();
        hbase.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
        if (authorization) {
            hbase.waitTableAvailable(ACL_TABLE);
        }
    }

    /** The settings every client and server of this cluster needs, apart from where it is. */
    private Map<String, String> securitySettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("hadoop.security.authentication", "kerberos");
        settings.put("hbase.security.authentication", "kerberos");
        settings.put("hbase.master.kerberos.principal", servicePrincipal);
        settings.put("hbase.regionserver.kerberos.principal", servicePrincipal);
        return settings;
    }

    /**
     * What a client's hbase-site.xml holds to reach this cluster: the security settings and the ZooKeeper quorum
     * (without a keytab: each process logs in on its own).
     */
    public Map<String, String> clientSettings() {
        Map<String, String> settings = securitySettings();
        settings.put(HConstants.ZOOKEEPER_QUORUM, hbase.getConfiguration().get(HConstants.ZOOKEEPER_QUORUM));
        settings.put(HConstants.ZOOKEEPER_CLIENT_PORT, Integer.toString(hbase.getZkCluster().getClientPort()));
        return settings;
    }

    /**
     * Creates the principals of {@code user} in a keytab of its own, unless done before: {@code user} itself and
     * {@code user/localhost} and {@code user/<this host>} (what {@code _HOST} may turn into). All of them map to the
     * short name {@code user}, the name HBase's permissions are granted to.
     *
     * @return the keytab
     */
    public synchronized File addUser(String user) throws Exception {
        File keytab = keytabs.get(user);
        if (keytab == null) {
            keytab = work.resolve(user + ".keytab").toFile();
            List<String> principals = new ArrayList<>(new LinkedHashSet<>(List.of(user, user + "/localhost",
                    user + "/" + host)));
            kdc.createPrincipal(keytab, principals.toArray(new String[0]));
            keytabs.put(user, keytab);
        }
        return keytab;
    }

    /**
     * A connection authenticated as {@code user} (logged in from its keytab, created first if need be), kept open
     * until {@link #close}.
     */
    public synchronized Connection connectionAs(String user) throws Exception {
        Connection connection = connections.get(user);
        if (connection == null) {
            File keytab = addUser(user);
            UserGroupInformation login = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
                    user + "@" + kdc.getRealm(), keytab.getAbsolutePath());
            connection = ConnectionFactory.createConnection(hbase.getConfiguration(), User.create(login));
            connections.put(user, connection);
        }
        return connection;
    }

    /** The superuser's connection: HBase's own service principal. */
    public Connection superuser() throws IOException {
        return hbase.getConnection();
    }

    /** The cluster's configuration, as its servers have it (keytabs included). */
    public Configuration configuration() {
        return hbase.getConfiguration();
    }

    public HBaseTestingUtility utility() {
        return hbase;
    }

    public String realm() {
        return kdc.getRealm();
    }

    /** The KDC's krb5.conf, for processes of their own ({@code -Djava.security.krb5.conf=}). */
    public File krb5conf() {
        return kdc.getKrb5conf();
    }

    @Override
    public synchronized void close() throws Exception {
        try {
            for (Connection connection : connections.values()) {
                connection.close();
            }
            connections.clear();
            if (hbase != null) {
                hbase.shutdownMiniCluster();
            }
        } finally {
            kdc.stop();
        }
    }
}
