package io.tidemark.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunSettingsTest {

    private static final Path FOLDER = Path.of("bench-results", "x");

    @Test
    void noWarmUpAndAPositiveDurationAreAccepted() {
        RunSettings.check(Duration.ZERO, Duration.ofMillis(1), FOLDER);
    }

    @Test
    void eachBadSettingIsRefusedNamingIt() {
        assertRefused("warm-up", Duration.ofSeconds(-1), Duration.ofSeconds(1), FOLDER);
        assertRefused("duration", Duration.ZERO, Duration.ZERO, FOLDER);
        assertRefused("duration", Duration.ZERO, null, FOLDER);
        assertRefused("output folder", Duration.ZERO, Duration.ofSeconds(1), null);
    }

    private static void assertRefused(String named, Duration warmup, Duration duration, Path folder) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunSettings.check(warmup, duration, folder));
        assertTrue(e.getMessage().startsWith(named), e.getMessage());
    }
}
