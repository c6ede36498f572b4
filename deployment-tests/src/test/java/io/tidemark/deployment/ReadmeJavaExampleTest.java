package io.tidemark.deployment;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's Java example is the client example's {@code Deposit} (which the deployment test compiles and runs),
 * word for word but for the package line: the README cannot show code that does not compile or run.
 */
class ReadmeJavaExampleTest {

    private static final String BLOCK_START = "```java\n";

    @Test
    void readmeJavaExampleIsTheClientExamplesDeposit() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("deployment.readme")));
        int start = readme.indexOf(BLOCK_START + "import ");
        assertTrue(start >= 0, "the README has no Java example starting with imports");
        int codeStart = start + BLOCK_START.length();
        String example = readme.substring(codeStart, readme.indexOf("```", codeStart));
        String deposit = Files.readString(Path.of(System.getProperty("deployment.client.sources"),
                "io", "tidemark", "example", "Deposit.java"));
        assertEquals("package io.tidemark.example;\n\n" + example, deposit,
                "README.md's Java example and client-example's Deposit.java differ: change both");
    }
}
