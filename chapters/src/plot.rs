//! A small line chart as a self-contained SVG, for the plots the chapter programs draw from
//! stored records (M4's time per move, the strength line of the book's last part).
//!
//! Deterministic: the same series give the same bytes, so a test can compare a plot in the book
//! with the one its record draws. Every number is printed with a fixed number of decimals.

use std::fmt::Write as _;

/// One line of a chart: points `(x, y)` in the data's units, with an optional error bar
/// (± that much in y) at each point.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub colour: &'static str,
    pub points: Vec<(f64, f64)>,
    pub error_bars: Option<Vec<f64>>,
}

/// A chart: its title, axis labels, the step of the y grid, and its lines. The x ticks are the
/// points' x values, labelled by `x_tick`.
#[derive(Debug)]
pub struct LineChart<'a> {
    pub title: &'a str,
    /// What a screen reader says of the chart.
    pub description: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub y_step: f64,
    pub x_tick: fn(f64) -> String,
    pub series: Vec<Series>,
}

const WIDTH: f64 = 680.0;
const HEIGHT: f64 = 380.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

impl LineChart<'_> {
    /// The chart as SVG.
    pub fn svg(&self) -> String {
        let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
        let ys = self.series.iter().flat_map(|s| {
            s.points.iter().enumerate().flat_map(move |(i, &(_, y))| {
                let e = s.error_bars.as_ref().map_or(0.0, |bars| bars[i]);
                [y - e, y + e]
            })
        });
        let (low, high) = ys.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let step = self.y_step;
        let (y_min, y_max) = ((low / step).floor() * step, (high / step).ceil() * step);
        let y_max = if y_max <= y_min { y_min + step } else { y_max };
        let mut xs: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|&(x, _)| x))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let (x_min, x_max) = (xs[0], xs[xs.len() - 1]);
        let span = (x_max - x_min).max(1e-9);
        let x = |v: f64| LEFT + 20.0 + (plot_w - 40.0) * (v - x_min) / span;
        let y = |v: f64| TOP + plot_h * (y_max - v) / (y_max - y_min);
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(svg, "<title>{}</title>", self.description);
        let _ = writeln!(
            svg,
            r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#
        );
        let ticks = ((y_max - y_min) / step).round() as usize;
        for i in 0..=ticks {
            let value = y_min + step * i as f64;
            let at = y(value);
            let _ = writeln!(
                svg,
                r##"<line x1="{LEFT}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{value}</text>"##,
                LEFT + plot_w,
                LEFT - 6.0,
                at + 4.0
            );
        }
        for &value in &xs {
            let at = x(value);
            let _ = writeln!(
                svg,
                r##"<line x1="{at:.1}" y1="{TOP}" x2="{at:.1}" y2="{:.1}" stroke="#eee"/><text x="{at:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                TOP + plot_h,
                TOP + plot_h + 18.0,
                (self.x_tick)(value)
            );
        }
        let _ = writeln!(
            svg,
            r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#444"/>"##
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            LEFT + plot_w / 2.0,
            HEIGHT - 12.0,
            self.x_label
        );
        let _ = writeln!(
            svg,
            r#"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            TOP + plot_h / 2.0,
            self.y_label
        );
        let _ = writeln!(
            svg,
            r#"<text x="{LEFT}" y="22" font-size="14">{}</text>"#,
            self.title
        );
        for (i, series) in self.series.iter().enumerate() {
            let colour = series.colour;
            let points: Vec<String> = series
                .points
                .iter()
                .map(|&(px, py)| format!("{:.1},{:.1}", x(px), y(py)))
                .collect();
            let _ = writeln!(
                svg,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="2" points="{}"/>"#,
                points.join(" ")
            );
            for (j, &(px, py)) in series.points.iter().enumerate() {
                let _ = writeln!(
                    svg,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#,
                    x(px),
                    y(py)
                );
                if let Some(bars) = &series.error_bars {
                    let _ = writeln!(
                        svg,
                        r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{colour}"/>"#,
                        x(px),
                        y(py - bars[j]),
                        y(py + bars[j])
                    );
                }
            }
            let legend_y = TOP + 10.0 + 20.0 * i as f64;
            let legend_x = LEFT + plot_w + 12.0;
            let _ = writeln!(
                svg,
                r#"<line x1="{legend_x:.1}" y1="{legend_y:.1}" x2="{:.1}" y2="{legend_y:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{}</text>"#,
                legend_x + 24.0,
                legend_x + 30.0,
                legend_y + 4.0,
                series.label
            );
        }
        svg.push_str("</svg>\n");
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_has_a_line_a_point_and_an_error_bar_per_value() {
        let chart = LineChart {
            title: "t",
            description: "d",
            x_label: "x",
            y_label: "y",
            y_step: 10.0,
            x_tick: |v| format!("{v}"),
            series: vec![Series {
                label: "a".into(),
                colour: "#000",
                points: vec![(1.0, 5.0), (2.0, 25.0)],
                error_bars: Some(vec![3.0, 4.0]),
            }],
        };
        let svg = chart.svg();
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 2);
        // The y grid runs from 0 (5 − 3, floored) to 30 (25 + 4, ceiled) by tens.
        for tick in [">0<", ">10<", ">20<", ">30<"] {
            assert!(svg.contains(tick), "{tick}");
        }
        assert!(!svg.contains(">40<"));
        assert_eq!(svg, chart.svg(), "the same chart, the same bytes");
    }
}
