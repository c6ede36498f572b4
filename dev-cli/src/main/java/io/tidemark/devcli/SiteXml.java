package io.tidemark.devcli;

/** A Hadoop-style site file ({@code <configuration><property>...}) with the given name/value pairs. */
final class SiteXml {

    private SiteXml() {
    }

    static String of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values must come in pairs");
        }
        StringBuilder xml = new StringBuilder("<configuration>\n");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            xml.append("  <property>\n")
                    .append("    <name>").append(escape(namesAndValues[i])).append("</name>\n")
                    .append("    <value>").append(escape(namesAndValues[i + 1])).append("</value>\n")
                    .append("  </property>\n");
        }
        return xml.append("</configuration>\n").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
