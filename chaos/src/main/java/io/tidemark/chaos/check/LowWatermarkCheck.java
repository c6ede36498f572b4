package io.tidemark.chaos.check;

import io.tidemark.chaos.history.WatermarkSamples;

import java.util.List;

/**
 * The low watermark persisted in the commit table never goes down: compaction collects below it and a region's
 * garbage-collection horizon starts from it, so a lower one would let a snapshot read what compaction removed.
 */
final class LowWatermarkCheck {

    private final Findings findings;

    LowWatermarkCheck(Findings findings) {
        this.findings = findings;
    }

    void check(List<WatermarkSamples.Sample> samples) {
        WatermarkSamples.Sample highest = null;
        for (WatermarkSamples.Sample s : samples) {
            if (highest != null && s.lowWatermark() < highest.lowWatermark()) {
                findings.add(Anomaly.Kind.LOW_WATERMARK_WENT_DOWN, "the commit table held low watermark "
                        + s.lowWatermark() + " at " + s.micros() + " µs, after it had held " + highest.lowWatermark()
                        + " at " + highest.micros() + " µs");
            }
            if (highest == null || s.lowWatermark() > highest.lowWatermark()) {
                highest = s;
            }
        }
    }
}
