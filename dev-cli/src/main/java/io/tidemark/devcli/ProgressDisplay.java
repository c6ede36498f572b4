package io.tidemark.devcli;

import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on standard error, shown from the first update on (so set-up time does not count as progress).
 * Without a terminal (CI, pipes) it prints a plain line every few seconds instead of redrawing one line, so logs
 * stay readable and nothing needs a console.
 */
final class ProgressDisplay implements AutoCloseable {

    private static final int PLAIN_WIDTH = 100;
    private static final int PLAIN_INTERVAL_MILLIS = 2_000;

    private final ProgressBarBuilder builder;
    private ProgressBar bar;

    ProgressDisplay(String task, long max, String unit) {
        builder = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(max)
                .setUnit(unit, 1)
                .hideEta();
        if (System.console() == null) {
            builder.setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(PLAIN_INTERVAL_MILLIS)
                    .setConsumer(new DelegatingProgressBarConsumer(System.err::println, PLAIN_WIDTH));
        }
    }

    void update(long current, String message) {
        if (bar == null) {
            bar = builder.build();
        }
        bar.stepTo(current);
        bar.setExtraMessage(message);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }
}
