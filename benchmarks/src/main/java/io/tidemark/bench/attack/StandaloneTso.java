package io.tidemark.bench.attack;

import io.tidemark.tso.TsoServer;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attack benchmark's TSO process: an {@link InMemoryTso} with the {@code key=value} settings of its arguments.
 * Prints {@value #READY}, the port and the HTTP endpoint's port once it serves, then runs until its standard input
 * closes (so it never outlives the benchmark that started it) or it is killed.
 */
public final class StandaloneTso {

    static final String READY = "TSO serving on port ";

    private StandaloneTso() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("expected key=value, got " + arg);
            }
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        try (TsoServer server = InMemoryTso.start(InMemoryTso.config(settings))) {
            System.out.println(READY + server.port() + " " + server.httpAddress().port());
            System.out.flush();
            while (System.in.read() >= 0) {
                // Wait for the parent to go away.
            }
        }
    }
}
