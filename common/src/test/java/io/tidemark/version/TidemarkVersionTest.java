package io.tidemark.version;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class TidemarkVersionTest {

    @Test
    void versionIsTheBuildsProjectVersion() {
        String version = TidemarkVersion.current();
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+.*"), version);
    }
}
