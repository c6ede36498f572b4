package io.tidemark.processcluster;

import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import io.tidemark.tso.monitoring.TsoStatus;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each kind of process answers once it serves, asked the way an operator's tools ask: ZooKeeper's {@code srvr}
 * command, the NameNode's JMX over HTTP, HBase's admin API, the TSO's {@code /health}.
 */
public final class Readiness {

    private static final int TIMEOUT_MS = 3000;
    private static final Pattern LIVE_DATANODES = Pattern.compile("\"NumLiveDataNodes\"\\s*:\\s*(\\d+)");
    private static final Pattern SAFE_MODE = Pattern.compile("\"Safemode\"\\s*:\\s*\"([^\"]*)\"");

    private Readiness() {
    }

    /** What a ZooKeeper server says its mode is ({@code leader}, {@code follower}); null when it does not serve. */
    public static String zookeeperMode(Member zk) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(zk.address(), zk.port(ClusterLayout.CLIENT)), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Matcher mode = Pattern.compile("Mode: (\\w+)").matcher(reply);
            return mode.find() ? mode.group(1) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** DataNodes the NameNode counts as live, when it is out of safe mode; -1 when it does not answer or is in it. */
    public static int liveDataNodes(Member namenode) {
        try {
            String state = jmx(namenode, "Hadoop:service=NameNode,name=FSNamesystemState");
            String info = jmx(namenode, "Hadoop:service=NameNode,name=NameNodeInfo");
            Matcher live = LIVE_DATANODES.matcher(state);
            Matcher safe = SAFE_MODE.matcher(info);
            if (!live.find() || !safe.find() || !safe.group(1).isEmpty()) {
                return -1;
            }
            return Integer.parseInt(live.group(1));
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Live region servers when the master is initialized and {@code hbase:meta} is online; -1 otherwise. */
    public static int liveRegionServers(Configuration client) {
        Configuration conf = new Configuration(client);
        // Fail fast per attempt; whoever waits for readiness is the patience.
        conf.setInt("hbase.client.retries.number", 1);
        conf.setInt("zookeeper.recovery.retry", 0);
        conf.setInt("hbase.rpc.timeout", TIMEOUT_MS);
        conf.setInt("hbase.client.operation.timeout", 2 * TIMEOUT_MS);
        try (Connection connection = ConnectionFactory.createConnection(conf);
             Admin admin = connection.getAdmin()) {
            admin.listNamespaceDescriptors();
            ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
            return admin.isTableAvailable(TableName.META_TABLE_NAME) ? metrics.getLiveServerMetrics().size() : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The TSO's own status ({@code GET /health}); null when it does not answer. */
    public static TsoStatus tso(Member tso) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(TIMEOUT_MS)).build();
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://"
                    + tso.endpoint(ClusterLayout.HTTP) + TsoHttpEndpoint.HEALTH_PATH))
                    .timeout(Duration.ofMillis(TIMEOUT_MS)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return TsoStatus.fromJson(response.body());
        } catch (IOException | IllegalArgumentException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String jmx(Member namenode, String bean) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(TIMEOUT_MS)).build();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://"
                + namenode.endpoint(ClusterLayout.HTTP) + "/jmx?qry=" + bean))
                .timeout(Duration.ofMillis(TIMEOUT_MS)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode());
        }
        return response.body();
    }
}
