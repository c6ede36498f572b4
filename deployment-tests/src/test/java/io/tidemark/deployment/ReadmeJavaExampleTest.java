package io.tidemark.deployment;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's Java example is the client example's {@code Deposit} (which the deployment test compiles and runs),
 * word for word but for the package line, and its Maven lines are the client example's: the README cannot show code
 * or coordinates that do not build or run.
 */
class ReadmeJavaExampleTest {

    private static final String BLOCK_START = "```java\n";
    private static final String XML_BLOCK_START = "```xml\n<dependencyManagement>";

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

    @Test
    void readmeMavenLinesAreTheClientExamplesDependencies() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("deployment.readme")));
        int start = readme.indexOf(XML_BLOCK_START);
        assertTrue(start >= 0, "the README has no Maven snippet starting with <dependencyManagement>");
        int xmlStart = start + "```xml\n".length();
        String snippet = withoutWhitespace(readme.substring(xmlStart, readme.indexOf("```", xmlStart)));
        String pom = withoutWhitespace(Files.readString(Path.of(System.getProperty("deployment.client.pom"))));
        // The snippet is the pom's <dependencyManagement> followed by its <dependencies>, nothing in between.
        assertTrue(pom.contains(snippet), "README.md's Maven lines are not client-example/pom.xml's: " + snippet);
    }

    private static String withoutWhitespace(String text) {
        return text.replaceAll("\\s+", "");
    }
}
