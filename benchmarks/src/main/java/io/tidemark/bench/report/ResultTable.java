package io.tidemark.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Rows of benchmark results under fixed column names, rendered as CSV, Markdown or aligned text. */
public final class ResultTable {

    private final List<String> columns;
    private final List<List<String>> rows = new ArrayList<>();

    public ResultTable(String... columns) {
        this.columns = List.of(columns);
    }

    public void addRow(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size()
                    + " columns " + columns);
        }
        rows.add(Arrays.stream(values).map(String::valueOf).toList());
    }

    /** A copy with one more column, last, holding {@code value} in every row. */
    public ResultTable withColumn(String name, String value) {
        List<String> names = new ArrayList<>(columns);
        names.add(name);
        ResultTable copy = new ResultTable(names.toArray(new String[0]));
        for (List<String> row : rows) {
            List<String> extended = new ArrayList<>(row);
            extended.add(value);
            copy.rows.add(extended);
        }
        return copy;
    }

    public String toCsv() {
        StringBuilder out = new StringBuilder(String.join(",", columns)).append('\n');
        for (List<String> row : rows) {
            out.append(String.join(",", row.stream().map(ResultTable::csvField).toList())).append('\n');
        }
        return out.toString();
    }

    public String toMarkdown() {
        StringBuilder out = new StringBuilder();
        out.append("| ").append(String.join(" | ", columns)).append(" |\n");
        out.append("|").append("---|".repeat(columns.size())).append('\n');
        for (List<String> row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        return out.toString();
    }

    /** Columns padded to their widest value, for the terminal. */
    public String toText() {
        int[] widths = new int[columns.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = columns.get(i).length();
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        appendPadded(out, columns, widths);
        for (List<String> row : rows) {
            appendPadded(out, row, widths);
        }
        return out.toString();
    }

    private static void appendPadded(StringBuilder out, List<String> values, int[] widths) {
        for (int i = 0; i < values.size(); i++) {
            String v = values.get(i);
            out.append(v).append(" ".repeat(widths[i] - v.length() + (i + 1 < values.size() ? 2 : 0)));
        }
        out.append('\n');
    }

    private static String csvField(String value) {
        if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
            return '"' + value.replace("\"", "\"\"") + '"';
        }
        return value;
    }
}
