package io.tidemark.dist;

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
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tarball's conf/tidemark-site.xml, TidemarkConfig and docs/configuration.md list the same keys with the same
 * defaults, so none of the three can drift from the others.
 */
class SiteTemplateTest {

    private static final Path TEMPLATE = Paths.get("src/main/conf/tidemark-site.xml");
    private static final Path CONFIGURATION_DOC = Paths.get("../docs/configuration.md");
    private static final String DEFAULT_SUFFIX = "_DEFAULT";

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

    @Test
    void configurationDocNamesEveryKey() throws Exception {
        String doc = Files.readString(CONFIGURATION_DOC);
        List<String> missing = new ArrayList<>();
        for (String key : keysAndDefaults().keySet()) {
            if (!doc.contains("`" + key + "`")) {
                missing.add(key);
            }
        }
        assertEquals(List.of(), missing, "keys of TidemarkConfig that " + CONFIGURATION_DOC + " does not name");
    }

    /** Every {@code tidemark.*} key constant and its {@code *_DEFAULT} constant's value ("" when it has none). */
    private static Map<String, String> keysAndDefaults() throws IllegalAccessException {
        Map<String, String> keys = new LinkedHashMap<>();
        for (Field field : TidemarkConfig.class.getFields()) {
            if (!Modifier.isStatic(field.getModifiers()) || field.getType() != String.class
                    || field.getName().endsWith(DEFAULT_SUFFIX)) {
                continue;
            }
            String key = (String) field.get(null);
            if (!key.startsWith("tidemark.")) {
                continue;
            }
            String defaultValue = "";
            try {
                Field defaultField = TidemarkConfig.class.getField(field.getName() + DEFAULT_SUFFIX);
                defaultValue = String.valueOf(defaultField.get(null));
            } catch (NoSuchFieldException noDefault) {
                // Listed with an empty value.
            }
            keys.put(key, defaultValue);
        }
        assertTrue(keys.size() > 50, "only " + keys.size() + " keys found in TidemarkConfig");
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
