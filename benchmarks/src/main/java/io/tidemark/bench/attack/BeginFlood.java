package io.tidemark.bench.attack;

import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.HelloReply;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Connections that pipeline BEGINs as fast as the TSO answers them, each keeping {@value #WINDOW} in flight and reading
 * every reply (issue 33, finding 6): from 4 connections this took a normal client's p50 from 0.1 ms to 44 ms, since
 * the one event loop served up to a megabyte of one connection's requests before looking at the next.
 */
public final class BeginFlood implements Attack {

    private static final String SOURCE = "127.0.0.10";
    private static final int WINDOW = 1000;

    private final int connections;
    private final AtomicLong answered = new AtomicLong();
    private volatile String failure;

    public BeginFlood(int connections) {
        this.connections = connections;
    }

    @Override
    public String name() {
        return "BEGIN flood from " + connections + " connections";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        long deadline = System.nanoTime() + duration.toNanos();
        byte[] window = RawConnection.frames(new BeginRequest(1), WINDOW);
        List<Thread> flooders = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            Thread flooder = new Thread(() -> flood(target, window, deadline), "begin-flood-" + c);
            flooders.add(flooder);
            flooder.start();
        }
        for (Thread flooder : flooders) {
            flooder.join();
        }
    }

    private void flood(Target target, byte[] window, long deadline) {
        try (RawConnection connection = new RawConnection(target.tso(), SOURCE, target.authenticated(), 10_000)) {
            connection.write(RawConnection.hello());
            if (!(connection.readMessage() instanceof HelloReply)) {
                failure = "no HELLO reply";
                return;
            }
            while (System.nanoTime() < deadline) {
                connection.write(window);
                connection.skipMessages(WINDOW);
                answered.addAndGet(WINDOW);
            }
        } catch (IOException | RuntimeException e) {
            failure = e.toString();
        }
    }

    @Override
    public String outcome() {
        return answered.get() + " BEGINs answered" + (failure != null ? "; " + failure : "");
    }
}
