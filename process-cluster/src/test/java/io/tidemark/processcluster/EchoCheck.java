package io.tidemark.processcluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A process of the partition test. With {@code address port}: connects once and exits 0 when a line comes back within a
 * second, 1 otherwise. With {@code address port keep}: keeps one connection and prints {@code ok} or {@code lost} for
 * each line sent every 100 ms, until killed.
 */
public final class EchoCheck {

    private static final int TIMEOUT_MS = 1000;

    private EchoCheck() {
    }

    public static void main(String[] args) throws Exception {
        boolean keep = args.length > 2;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(args[0], Integer.parseInt(args[1])), TIMEOUT_MS);
            socket.setSoTimeout(keep ? 300 : TIMEOUT_MS);
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.UTF_8));
            PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
            for (int i = 0; ; i++) {
                out.println("line " + i);
                try {
                    String echoed;
                    do {
                        echoed = in.readLine();
                    } while (echoed != null && !echoed.equals("line " + i));
                    if (!keep) {
                        System.exit(echoed != null ? 0 : 1);
                    }
                    System.out.println(echoed != null ? "ok" : "closed");
                } catch (java.net.SocketTimeoutException e) {
                    if (!keep) {
                        System.exit(1);
                    }
                    System.out.println("lost");
                }
                Thread.sleep(100);
            }
        } catch (java.io.IOException e) {
            System.exit(1);
        }
    }
}
