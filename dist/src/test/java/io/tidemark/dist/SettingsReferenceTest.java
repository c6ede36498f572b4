package io.tidemark.dist;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The settings tables of docs/configuration.md are the declarations of {@link TidemarkConfig}, rendered: one table per
 * {@link Setting.Section}, under its heading, a row per setting in declaration order. The prose around the tables is
 * written by hand. Run with {@code -Dtidemark.settings.write=true} to rewrite the tables after changing a declaration.
 */
@Timeout(60)
class SettingsReferenceTest {

    private static final Path CONFIGURATION_DOC = Paths.get("../docs/configuration.md");
    private static final String TABLE_HEADER = "| Key | Default | Values | Meaning |";

    @Test
    void configurationDocTablesAreTheDeclarations() throws IOException {
        String doc = Files.readString(CONFIGURATION_DOC);
        String rendered = withRenderedTables(doc);
        if (Boolean.getBoolean("tidemark.settings.write")) {
            Files.writeString(CONFIGURATION_DOC, rendered);
        }
        assertEquals(rendered, doc, CONFIGURATION_DOC + " differs from TidemarkConfig's declarations; rewrite its"
                + " tables with -Dtidemark.settings.write=true");
    }

    @Test
    void everySectionHasItsHeading() throws IOException {
        List<String> lines = Files.readAllLines(CONFIGURATION_DOC);
        for (Setting.Section section : Setting.Section.values()) {
            assertTrue(lines.contains("## " + section.title()), "no heading for " + section);
        }
    }

    /** {@code doc} with the table under each section's heading replaced by the rendered declarations. */
    private static String withRenderedTables(String doc) {
        List<String> lines = new ArrayList<>(List.of(doc.split("\n", -1)));
        for (Setting.Section section : Setting.Section.values()) {
            int heading = lines.indexOf("## " + section.title());
            if (heading < 0) {
                continue;
            }
            int start = heading + 1;
            while (start < lines.size() && !lines.get(start).startsWith("|") && !lines.get(start).startsWith("## ")) {
                start++;
            }
            int end = start;
            while (end < lines.size() && lines.get(end).startsWith("|")) {
                end++;
            }
            List<String> table = table(section);
            if (start == end) {
                table.add("");
            }
            lines.subList(start, end).clear();
            lines.addAll(start, table);
        }
        return String.join("\n", lines);
    }

    private static List<String> table(Setting.Section section) {
        List<String> rows = new ArrayList<>();
        rows.add(TABLE_HEADER);
        rows.add("|---|---|---|---|");
        for (Setting<?> setting : TidemarkConfig.all()) {
            if (setting.section() == section) {
                rows.add("| `" + setting.key() + "` | " + setting.defaultText() + " | " + setting.type().accepted()
                        + " | " + setting.description() + " |");
            }
        }
        return rows;
    }
}
