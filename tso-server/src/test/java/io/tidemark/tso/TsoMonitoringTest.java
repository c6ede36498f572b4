package io.tidemark.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import io.tidemark.tso.monitoring.TsoJmx;
import io.tidemark.tso.monitoring.TsoRole;
import io.tidemark.tso.monitoring.TsoStatus;
import io.tidemark.version.TidemarkVersion;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.tidemark.tso.HttpScrape.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11, observability: a TSO's metrics on /metrics (Prometheus text) and JMX, its state on /health, scraped over
 * real sockets from TSOs on in-memory storage.
 */
class TsoMonitoringTest {

    private static final long WAIT_SECONDS = 60;

    @Test
    void metricsEndpointExportsRequestsAbortsByReasonAndTheConflictMap() throws IOException {
        try (TsoServer tso = TestTso.start(TestTso.config("metrics", CommitMode.LOW_LATENCY));
             TsoTestClient a = TsoTestClient.connected(tso.port());
             TsoTestClient b = TsoTestClient.connected(tso.port())) {
            long startA = a.begin();
            long startB = b.begin();
            a.begin();
            assertInstanceOf(CommittedReply.class, b.commit(startB, 7, 8));
            assertInstanceOf(AbortedReply.class, a.commit(startA, 8));

            HttpResponse<String> response = HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.METRICS_PATH);
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
                    response.headers().toString());
            Map<String, Double> samples = HttpScrape.samples(response.body());
            assertEquals(3, sample(samples, "tso_begins"));
            assertEquals(1, sample(samples, "tso_commits"));
            assertEquals(1, sample(samples, "tso_aborts{reason=\"conflict\"}"));
            assertEquals(0, sample(samples, "tso_aborts{reason=\"below-low-watermark\"}"));
            assertEquals(0, sample(samples, "tso_aborts{reason=\"stale-epoch\"}"));
            assertEquals(3, sample(samples, "tso_begin_latency_count"));
            assertEquals(2, sample(samples, "tso_commit_latency_count"), "a commit is timed whatever its outcome");
            assertTrue(sample(samples, "tso_commit_latency{quantile=\"0.99\"}") > 0);
            assertEquals(2, sample(samples, "tso_connections"));
            assertEquals(3.0 / 4096, sample(samples, "tso_conflict_map_fill"),
                    "two ids and the committed start timestamp in a 4096-entry map");
            assertEquals(0, sample(samples, "tso_conflict_map_evictions"));
            assertEquals(0, sample(samples, "tso_low_watermark"), "nothing evicted, nothing persisted yet");
            assertEquals(tso.epoch(), (long) sample(samples, "tso_epoch"));
            assertEquals(1, sample(samples, "tso_active"));
            assertEquals(TsoRole.ACTIVE.code(), sample(samples, "tso_role"));
            assertEquals(0, sample(samples, "tso_errors"));
            assertTrue(sample(samples, "tso_lease_remaining_ms") > 0);
        }
    }

    @Test
    void healthOfTheActiveTsoHasRoleEpochModeAndConflictMap() throws IOException {
        try (TsoServer tso = TestTso.start(TestTso.config("health", CommitMode.LOW_LATENCY));
             TsoTestClient client = TsoTestClient.connected(tso.port())) {
            client.commit(client.begin(), 1, 2, 3);

            HttpResponse<String> response = HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH);
            assertEquals(200, response.statusCode());
            assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").get());
            TsoStatus status = TsoStatus.fromJson(response.body());
            assertEquals(TsoRole.ACTIVE, status.role());
            assertEquals(tso.epoch(), status.epoch());
            assertEquals("low-latency", status.commitMode());
            assertEquals("cell", status.conflictLevel());
            assertEquals(4.0 / 4096, status.conflictMapFill(), "three ids and the committed start timestamp");
            assertEquals(1, status.connections());
            assertEquals(tso.advertisedAddress().toString(), status.address());
            assertEquals(tso.httpAddress().toString(), status.httpAddress());
            assertEquals(TidemarkVersion.current(), status.version());
            assertNull(status.lastError());
            assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.ACTIVE_PATH).statusCode());
        }
    }

    @Test
    void standbyIsHealthyButNotActiveAndNamesTheActiveTso() throws Exception {
        TidemarkConfig config = TestTso.config("standby", CommitMode.LOW_LATENCY);
        TestTso.Cluster cluster = new TestTso.Cluster();
        RecordingListener events = new RecordingListener();
        try (TsoServer active = cluster.start(config);
             TsoServer standby = cluster.builder(config).listener(events).build()) {
            standby.startCompeting();
            events.standingBy.get(WAIT_SECONDS, TimeUnit.SECONDS);

            HttpResponse<String> health = HttpScrape.get(standby.httpAddress(), TsoHttpEndpoint.HEALTH_PATH);
            assertEquals(200, health.statusCode(), "a standby ready to take over is healthy");
            TsoStatus status = TsoStatus.fromJson(health.body());
            assertEquals(TsoRole.STANDBY, status.role());
            assertEquals(active.advertisedAddress().toString(), status.activeTso());
            assertEquals(0, status.epoch());
            assertNull(status.commitMode());
            assertEquals(503, HttpScrape.get(standby.httpAddress(), TsoHttpEndpoint.ACTIVE_PATH).statusCode());
            Map<String, Double> samples = HttpScrape.samples(
                    HttpScrape.get(standby.httpAddress(), TsoHttpEndpoint.METRICS_PATH).body());
            assertEquals(0, sample(samples, "tso_active"));
            assertEquals(TsoRole.STANDBY.code(), sample(samples, "tso_role"));
        }
    }

    @Test
    void deposedTsoIsUnhealthyAndSaysWhyUntilItIsClosed() throws Exception {
        TidemarkConfig config = TestTso.config("deposed", CommitMode.LOW_LATENCY);
        TestTso.Cluster cluster = new TestTso.Cluster();
        RecordingListener events = new RecordingListener();
        HostAndPort http;
        try (TsoServer tso = cluster.builder(config).listener(events).build()) {
            tso.start();
            http = tso.httpAddress();
            cluster.takeLease("intruder-1");
            events.stopped.get(WAIT_SECONDS, TimeUnit.SECONDS);

            HttpResponse<String> health = HttpScrape.get(http, TsoHttpEndpoint.HEALTH_PATH);
            assertEquals(503, health.statusCode());
            TsoStatus status = TsoStatus.fromJson(health.body());
            assertEquals(TsoRole.STOPPED, status.role());
            assertTrue(status.stopReason().contains("intruder-1"), status.stopReason());
            assertTrue(status.lastError().contains("intruder-1"), status.lastError());
            assertTrue(status.lastErrorAgeMs() >= 0);
            Map<String, Double> samples = HttpScrape.samples(HttpScrape.get(http, TsoHttpEndpoint.METRICS_PATH)
                    .body());
            assertEquals(1, sample(samples, "tso_errors"));
            assertEquals(0, sample(samples, "tso_active"));
        }
        assertThrows(ConnectException.class, () -> HttpScrape.get(http, TsoHttpEndpoint.HEALTH_PATH),
                "a closed TSO's endpoint is gone");
    }

    @Test
    void batchedModeExportsBatchSizesAndCommitTableLatency() throws IOException {
        try (TsoServer tso = TestTso.start(TestTso.config("batchmetrics", CommitMode.BATCHED));
             TsoTestClient client = TsoTestClient.connected(tso.port())) {
            for (int i = 0; i < 3; i++) {
                assertInstanceOf(CommittedReply.class, client.commit(client.begin(), 100 + i));
            }
            Map<String, Double> samples = HttpScrape.samples(
                    HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.METRICS_PATH).body());
            assertEquals(3, sample(samples, "tso_commit_latency_count"));
            double batches = sample(samples, "tso_batch_size_count");
            assertTrue(batches >= 1 && batches <= 3, "batches: " + batches);
            assertEquals(batches, sample(samples, "tso_batch_commit_table_write_count"));
            assertTrue(sample(samples, "tso_batch_size{quantile=\"0.5\"}") >= 1);
            assertEquals(0, sample(samples, "tso_batch_commit_table_failures"));
        }
    }

    @Test
    void metricsAreMBeansNamedByTheTsoPort() throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        int port;
        try (TsoServer tso = TestTso.start(TestTso.config("jmx", CommitMode.LOW_LATENCY));
             TsoTestClient client = TsoTestClient.connected(tso.port())) {
            port = tso.port();
            client.commit(client.begin(), 5);
            client.begin();
            assertEquals(2L, jmx.getAttribute(TsoJmx.objectName(port, "tso.begins"), "Count"));
            assertEquals(1L, jmx.getAttribute(TsoJmx.objectName(port, "tso.commit.latency"), "Count"));
            assertTrue((Double) jmx.getAttribute(TsoJmx.objectName(port, "tso.commit.latency"), "99thPercentile")
                    > 0);
            assertEquals(tso.epoch(), jmx.getAttribute(TsoJmx.objectName(port, "tso.epoch"), "Value"));
            assertEquals(1, jmx.getAttribute(TsoJmx.objectName(port, "tso.active"), "Value"));
            assertEquals(0L, jmx.getAttribute(TsoJmx.objectName(port, "tso.aborts.conflict"), "Count"));
        }
        assertFalse(jmx.isRegistered(TsoJmx.objectName(port, "tso.begins")), "closing unregisters the MBeans");
    }

    @Test
    void leaseCarriesTheHttpAddressAndTheEndpointCanBeTurnedOff() throws IOException {
        TestTso.Cluster withHttp = new TestTso.Cluster();
        try (TsoServer tso = withHttp.start(TestTso.config("leasehttp", CommitMode.LOW_LATENCY))) {
            assertNotNull(tso.httpAddress());
            assertEquals(tso.httpAddress().toString(), withHttp.leases.holder().httpAddress().toString());
        }
        TidemarkConfig off = TestTso.config("nohttp", CommitMode.LOW_LATENCY);
        off.set(TidemarkConfig.TSO_HTTP_PORT, "-1");
        TestTso.Cluster withoutHttp = new TestTso.Cluster();
        try (TsoServer tso = withoutHttp.start(off)) {
            assertNull(tso.httpAddress());
            assertNull(withoutHttp.leases.holder().httpAddress());
            assertEquals(TsoRole.ACTIVE, tso.status().role(), "the status is still there for the process itself");
        }
    }

    @Test
    void anEndpointBoundToAnAddressOfItsOwnIsPublishedWithThatAddress() throws IOException {
        TidemarkConfig config = TestTso.config("httphost", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_ADVERTISED_HOST, "tso1.example.invalid");
        try (TsoServer tso = TestTso.start(config)) {
            assertEquals("tso1.example.invalid", tso.httpAddress().host(), "same address as the TSO: its name too");
        }
        config.set(TidemarkConfig.TSO_HTTP_HOST, "localhost");
        try (TsoServer tso = TestTso.start(config)) {
            assertEquals("localhost", tso.httpAddress().host(), "a management address of its own");
            assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH).statusCode());
        }
    }

    @Test
    void busyHttpPortFailsTheStartNamingTheAddress() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            TidemarkConfig config = TestTso.config("busyhttp", CommitMode.LOW_LATENCY);
            config.set(TidemarkConfig.TSO_HTTP_PORT, Integer.toString(busy.getLocalPort()));
            IOException e = assertThrows(IOException.class, () -> TestTso.start(config));
            assertTrue(e.getMessage().contains("HTTP endpoint") && e.getMessage().contains(
                    "127.0.0.1:" + busy.getLocalPort()), e.getMessage());
        }
    }

    @Test
    void onlyGetAndHeadOfTheKnownPathsAreAnswered() throws IOException {
        try (TsoServer tso = TestTso.start(TestTso.config("paths", CommitMode.LOW_LATENCY))) {
            assertEquals(404, HttpScrape.get(tso.httpAddress(), "/metrics/extra").statusCode());
            assertEquals(404, HttpScrape.get(tso.httpAddress(), "/").statusCode());
            assertEquals(405, HttpScrape.send(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH, "POST").statusCode());
            HttpResponse<String> head = HttpScrape.send(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH, "HEAD");
            assertEquals(200, head.statusCode());
            assertEquals("", head.body());
        }
    }
}
