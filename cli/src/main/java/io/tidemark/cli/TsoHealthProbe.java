package io.tidemark.cli;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import io.tidemark.tso.monitoring.TsoStatus;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Asks a TSO's HTTP endpoint for its {@link TsoStatus} ({@code GET /health}) and turns every way that can fail into
 * one sentence an operator can act on: nothing listens, something else listens, no answer in time.
 */
final class TsoHealthProbe {

    private final Duration timeout;

    TsoHealthProbe(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * The status the endpoint at {@code endpoint} reports, healthy or not.
     *
     * @throws IOException when there is no status to report (names the endpoint and the likely cause)
     */
    TsoStatus status(HostAndPort endpoint) throws IOException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + TsoHttpEndpoint.HEALTH_PATH))
                .timeout(timeout).GET().build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new IOException("no TSO answers at " + endpoint + " (connection refused): the TSO is down, or its"
                    + " HTTP endpoint listens elsewhere (" + TidemarkConfig.TSO_HTTP_PORT + ")", e);
        } catch (HttpConnectTimeoutException e) {
            throw new IOException("could not connect to " + endpoint + " within " + timeout.toMillis() + " ms: the"
                    + " host is down or unreachable", e);
        } catch (HttpTimeoutException e) {
            throw new IOException("the TSO at " + endpoint + " did not answer within " + timeout.toMillis() + " ms",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while asking " + endpoint + " for its status");
        } catch (IOException e) {
            throw new IOException(endpoint + " does not answer HTTP (" + e.getMessage() + "); if that is the TSO's"
                    + " client port, use its HTTP port instead (" + TidemarkConfig.TSO_HTTP_PORT + ", default "
                    + TidemarkConfig.TSO_HTTP_PORT.defaultValue() + ")", e);
        }
        if (response.statusCode() != 200 && response.statusCode() != 503) {
            throw new IOException(endpoint + " answered HTTP " + response.statusCode() + " to "
                    + TsoHttpEndpoint.HEALTH_PATH + ": it is not a Tidemark TSO's HTTP endpoint");
        }
        try {
            return TsoStatus.fromJson(response.body());
        } catch (IllegalArgumentException e) {
            throw new IOException(endpoint + " answered " + TsoHttpEndpoint.HEALTH_PATH + ", but " + e.getMessage()
                    + ": it is not a Tidemark TSO's HTTP endpoint", e);
        }
    }
}
