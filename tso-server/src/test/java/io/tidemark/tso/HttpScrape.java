package io.tidemark.tso;

import io.tidemark.config.HostAndPort;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Reads a TSO's HTTP endpoint as a monitoring system would: plain HTTP over a real socket. */
final class HttpScrape {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpScrape() {
    }

    static HttpResponse<String> get(HostAndPort endpoint, String path) throws IOException {
        return send(endpoint, path, "GET");
    }

    static HttpResponse<String> send(HostAndPort endpoint, String path, String method) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + endpoint + path))
                .timeout(Duration.ofSeconds(20)).method(method, HttpRequest.BodyPublishers.noBody()).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * The samples of a Prometheus text body, keyed by name plus labels, e.g. {@code tso_aborts{reason="conflict"}}
     * (the trailing comma the Prometheus client writes after the last label is dropped).
     */
    static Map<String, Double> samples(String body) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : body.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space).replace(",}", "}"), Double.parseDouble(line.substring(space + 1)));
        }
        return samples;
    }

    /** The value of {@code key} in {@code samples}; fails naming the key when it is missing. */
    static double sample(Map<String, Double> samples, String key) {
        Double value = samples.get(key);
        if (value == null) {
            throw new AssertionError("no sample " + key + " in " + new TreeMap<>(samples).keySet());
        }
        return value;
    }
}
