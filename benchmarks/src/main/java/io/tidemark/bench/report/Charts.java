package io.tidemark.bench.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The benchmark plots: small PNGs (XChart) in one style, so they can sit side by side in the docs. */
public final class Charts {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 400;

    private Charts() {
    }

    /** Lines with markers, e.g. latency against throughput. */
    public static XYChart lines(String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        legendBelow(chart.getStyler());
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    /** Grouped bars, one group per category; {@code stacked} piles the series of a category on each other. */
    public static CategoryChart bars(String title, String xTitle, String yTitle, boolean stacked) {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        legendBelow(chart.getStyler());
        chart.getStyler().setStacked(stacked);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return chart;
    }

    /** Below the plot, so it never hides a point or a bar. */
    private static void legendBelow(Styler styler) {
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setLegendLayout(Styler.LegendLayout.Horizontal);
    }

    /** Writes {@code chart} as {@code folder/fileName} (a .png name) and returns the file name. */
    public static String save(Chart<?, ?> chart, Path folder, String fileName) throws IOException {
        // Rendering needs no display; without this a machine with no X server fails to draw.
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(folder);
        try (OutputStream out = Files.newOutputStream(folder.resolve(fileName))) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return fileName;
    }
}
