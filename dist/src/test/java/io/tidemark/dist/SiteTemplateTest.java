package io.tidemark.dist;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Comment;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The tarball's conf/tidemark-site.xml lists exactly the settings TidemarkConfig declares, with their defaults, so it
 * cannot drift from the declarations (docs/configuration.md: {@link SettingsReferenceTest}).
 */
class SiteTemplateTest {

    private static final Path TEMPLATE = Paths.get("src/main/conf/tidemark-site.xml");

    @Test
    void templateListsEveryKeyOfTidemarkConfigWithItsDefault() throws Exception {
        Map<String, String> template = commentedOutProperties();
        Map<String, String> code = keysAndDefaults();
        List<String> missing = new ArrayList<>(code.keySet());
        missing.removeAll(template.keySet());
        assertEquals(List.of(), missing, "keys of TidemarkConfig missing from " + TEMPLATE);
        List<String> unknown = new ArrayList<>(template.keySet());
        unknown.removeAll(code.keySet());
        assertEquals(List.of(), unknown, "keys of " + TEMPLATE + " that TidemarkConfig does not define");
        List<String> wrongDefaults = new ArrayList<>();
        for (Entry<String, String> key : code.entrySet()) {
            if (!key.getValue().equals(template.get(key.getKey()))) {
                wrongDefaults.add(key.getKey() + ": " + template.get(key.getKey()) + " instead of " + key.getValue());
            }
        }
        assertEquals(List.of(), wrongDefaults, "defaults in " + TEMPLATE + " that differ from TidemarkConfig's");
    }

    @Test
    void templateSetsNothing() throws Exception {
        assertEquals(0, parse(Files.readString(TEMPLATE)).getElementsByTagName("property").getLength(),
                "every property of the template is commented out");
        Configuration conf = new Configuration(false);
        conf.addResource(TEMPLATE.toUri().toURL());
        List<String> set = new ArrayList<>();
        conf.forEach(e -> set.add(e.getKey()));
        assertEquals(List.of(), set);
    }

    /** Every declared key and its default as a site file writes it ("" when it has none). */
    private static Map<String, String> keysAndDefaults() {
        Map<String, String> keys = new LinkedHashMap<>();
        for (Setting<?> setting : TidemarkConfig.all()) {
            keys.put(setting.key(), setting.defaultInSiteFile());
        }
        return keys;
    }

    /** The properties inside the template's comments: name to value. */
    private static Map<String, String> commentedOutProperties() throws Exception {
        Map<String, String> properties = new LinkedHashMap<>();
        Element root = parse(Files.readString(TEMPLATE)).getDocumentElement();
        for (Node node = root.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (!(node instanceof Comment)) {
                continue;
            }
            String text = ((Comment) node).getData();
            int start = text.indexOf("<property>");
            if (start < 0) {
                continue;
            }
            Element property = parse(text.substring(start, text.indexOf("</property>") + "</property>".length()))
                    .getDocumentElement();
            String name = property.getElementsByTagName("name").item(0).getTextContent();
            assertFalse(properties.containsKey(name), name + " is listed twice");
            properties.put(name, property.getElementsByTagName("value").item(0).getTextContent());
        }
        return properties;
    }

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }
}
