package io.recrawl.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A minimal inline-SVG chart (lines and points, linear or log axes) for the self-contained report.
 */
public final class SvgChart {

  public static final String[] COLORS = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000000", "#aec7e8"
  };
  private static final int W = 760;
  private static final int H = 300;
  private static final int L = 70;
  private static final int R = 170;
  private static final int T = 20;
  private static final int B = 45;

  private record Series(
      String name, double[] x, double[] y, String color, boolean points, boolean dashed) {}

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean logX;
  private final boolean logY;
  private final List<Series> series = new ArrayList<>();
  private final List<double[]> vLines = new ArrayList<>();
  private final List<String> vLabels = new ArrayList<>();

  public SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.logX = logX;
    this.logY = logY;
  }

  public SvgChart line(String name, double[] x, double[] y, String color, boolean dashed) {
    series.add(new Series(name, x, y, color, false, dashed));
    return this;
  }

  public SvgChart points(String name, double[] x, double[] y, String color) {
    series.add(new Series(name, x, y, color, true, false));
    return this;
  }

  public SvgChart marker(double x, String label) {
    vLines.add(new double[] {x});
    vLabels.add(label);
    return this;
  }

  private double tx(double v) {
    return logX ? Math.log10(v) : v;
  }

  private double ty(double v) {
    return logY ? Math.log10(v) : v;
  }

  private boolean ok(double x, double y) {
    return Double.isFinite(x) && Double.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
  }

  public String render() {
    double x0 = Double.POSITIVE_INFINITY;
    double x1 = Double.NEGATIVE_INFINITY;
    double y0 = Double.POSITIVE_INFINITY;
    double y1 = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (int i = 0; i < s.x.length; i++) {
        if (ok(s.x[i], s.y[i])) {
          x0 = Math.min(x0, tx(s.x[i]));
          x1 = Math.max(x1, tx(s.x[i]));
          y0 = Math.min(y0, ty(s.y[i]));
          y1 = Math.max(y1, ty(s.y[i]));
        }
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "<h3>%s</h3>%n<svg width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"11\">%n",
            esc(title),
            W,
            H));
    if (!(x1 >= x0) || !(y1 >= y0)) {
      sb.append("<text x=\"20\" y=\"40\">no data</text></svg>\n");
      return sb.toString();
    }
    if (!logY && y0 > 0 && y0 < 0.5 * y1) {
      y0 = 0;
    }
    if (x1 == x0) {
      x1 = x0 + 1;
    }
    if (y1 == y0) {
      y1 = y0 + (y0 == 0 ? 1 : Math.abs(y0) * 0.1);
    }
    double pad = (y1 - y0) * 0.05;
    y1 += pad;
    if (y0 != 0 || logY) {
      y0 -= pad;
    }
    final double fx0 = x0;
    final double fx1 = x1;
    final double fy0 = y0;
    final double fy1 = y1;
    java.util.function.DoubleUnaryOperator px = v -> L + (v - fx0) / (fx1 - fx0) * (W - L - R);
    java.util.function.DoubleUnaryOperator py = v -> H - B - (v - fy0) / (fy1 - fy0) * (H - T - B);
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
            L,
            T,
            W - L - R,
            H - T - B));
    for (int k = 0; k <= 4; k++) {
      double vx = x0 + (x1 - x0) * k / 4;
      double vy = y0 + (y1 - y0) * k / 4;
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              px.applyAsDouble(vx),
              H - B + 15,
              fmt(logX ? Math.pow(10, vx) : vx)));
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              L - 5,
              py.applyAsDouble(vy) + 4,
              fmt(logY ? Math.pow(10, vy) : vy)));
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>%n",
              L,
              W - R,
              py.applyAsDouble(vy),
              py.applyAsDouble(vy)));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            (W - R + L) / 2,
            H - 8,
            esc(xLabel)));
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s</text>%n",
            (H - B + T) / 2,
            (H - B + T) / 2,
            esc(yLabel)));
    for (int i = 0; i < vLines.size(); i++) {
      double v = tx(vLines.get(i)[0]);
      if (v >= x0 && v <= x1) {
        double x = px.applyAsDouble(v);
        sb.append(
            String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\" stroke-dasharray=\"3,3\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"#555\">%s</text>%n",
                x,
                x,
                T,
                H - B,
                x + 3,
                T + 12,
                esc(vLabels.get(i))));
      }
    }
    int legendY = T + 10;
    for (Series s : series) {
      if (s.points) {
        for (int i = 0; i < s.x.length; i++) {
          if (ok(s.x[i], s.y[i])) {
            sb.append(
                String.format(
                    Locale.ROOT,
                    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\" fill=\"%s\" fill-opacity=\"0.6\"/>",
                    px.applyAsDouble(tx(s.x[i])),
                    py.applyAsDouble(ty(s.y[i])),
                    s.color));
          }
        }
        sb.append('\n');
      } else {
        StringBuilder path = new StringBuilder();
        boolean pen = false;
        for (int i = 0; i < s.x.length; i++) {
          if (!ok(s.x[i], s.y[i])) {
            pen = false;
            continue;
          }
          path.append(pen ? " L" : " M")
              .append(
                  String.format(
                      Locale.ROOT,
                      "%.1f %.1f",
                      px.applyAsDouble(tx(s.x[i])),
                      py.applyAsDouble(ty(s.y[i]))));
          pen = true;
        }
        sb.append(
            String.format(
                Locale.ROOT,
                "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s/>%n",
                path.toString().trim(),
                s.color,
                s.dashed ? " stroke-dasharray=\"6,4\"" : ""));
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              W - R + 10,
              legendY - 9,
              s.color,
              W - R + 25,
              legendY,
              esc(s.name)));
      legendY += 15;
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  public static String fmt(double v) {
    double a = Math.abs(v);
    if (a != 0 && (a < 0.01 || a >= 1e5)) {
      return String.format(Locale.ROOT, "%.1e", v);
    }
    return String.format(Locale.ROOT, a < 10 ? "%.3g" : "%.0f", v);
  }

  public static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
