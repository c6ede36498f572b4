package io.tidemark.chaos.cli;

import io.tidemark.cli.Main;
import io.tidemark.testing.CommandLineRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code ./tidemark chaos} refuses before it starts any cluster. */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ChaosCommandTest {

    @Test
    void anOutputFolderHoldingAnEarlierRunIsRefusedBeforeAnythingStarts(@TempDir Path folder) throws Exception {
        Path earlier = Files.createDirectories(folder.resolve("run").resolve("hdfs"));
        Files.writeString(earlier.resolve("VERSION"), "clusterID=CID-of-an-earlier-run");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exitCode = CommandLineRun.execute(Main.configured(new ChaosCommand()), out, err, "--cluster", "processes",
                "--seconds", "1", "--output", folder.resolve("run").toString());

        assertEquals(2, exitCode, err.toString());
        assertTrue(err.toString().contains("is not empty: name a new folder, or remove that one first"),
                err.toString());
        assertEquals("clusterID=CID-of-an-earlier-run", Files.readString(earlier.resolve("VERSION")),
                "the earlier run's files are left as they were");
    }

    @Test
    void anOutputThatIsAFileIsRefused(@TempDir Path folder) throws Exception {
        Path file = Files.writeString(folder.resolve("results.txt"), "not a folder");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int exitCode = CommandLineRun.execute(Main.configured(new ChaosCommand()), out, err, "--seconds", "1",
                "--output", file.toString());

        assertEquals(2, exitCode, err.toString());
        assertTrue(err.toString().contains("--output " + file), err.toString());
    }
}
