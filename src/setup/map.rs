//! The deployment map of a setup as inline SVG: the 36"×36" table to scale
//! (one SVG unit per inch), both deployment zones, the centreline, the
//! centrepoint and any fixed strategy markers.

use std::fmt::Write;

use super::pool::{DeploymentKind, MarkerPoint};

const TABLE: f64 = 36.0;
/// A 30 mm marker is about 1.18" across.
const MARKER_RADIUS: f64 = 0.59;

/// A zone outline in table inches, y measured up from the near (bottom) edge.
enum Shape {
    Polygon(Vec<(f64, f64)>),
    /// A quarter disc around a table corner.
    QuarterDisc {
        corner: (f64, f64),
        radius: f64,
    },
}

struct Layout {
    near: Shape,
    far: Shape,
    centreline: ((f64, f64), (f64, f64)),
}

fn layout(kind: DeploymentKind) -> Layout {
    let horizontal_centreline = ((0.0, 18.0), (TABLE, 18.0));
    let diagonal_centreline = ((0.0, TABLE), (TABLE, 0.0));
    match kind {
        DeploymentKind::Standard => Layout {
            near: band(0.0, 8.0),
            far: band(28.0, TABLE),
            centreline: horizontal_centreline,
        },
        DeploymentKind::StandardFirstEdition => Layout {
            near: band(0.0, 6.0),
            far: band(30.0, TABLE),
            centreline: horizontal_centreline,
        },
        DeploymentKind::Corner => Layout {
            near: Shape::QuarterDisc {
                corner: (0.0, 0.0),
                radius: 12.0,
            },
            far: Shape::QuarterDisc {
                corner: (TABLE, TABLE),
                radius: 12.0,
            },
            centreline: diagonal_centreline,
        },
        DeploymentKind::Corners => Layout {
            near: Shape::Polygon(vec![(0.0, 0.0), (8.0, 0.0), (8.0, 8.0), (0.0, 8.0)]),
            far: Shape::Polygon(vec![
                (28.0, 28.0),
                (TABLE, 28.0),
                (TABLE, TABLE),
                (28.0, TABLE),
            ]),
            centreline: diagonal_centreline,
        },
        DeploymentKind::Flank => Layout {
            // The quarter, less the 9"×9" square nearest the table's centre.
            near: Shape::Polygon(vec![
                (0.0, 0.0),
                (18.0, 0.0),
                (18.0, 9.0),
                (9.0, 9.0),
                (9.0, 18.0),
                (0.0, 18.0),
            ]),
            far: Shape::Polygon(vec![
                (TABLE, TABLE),
                (18.0, TABLE),
                (18.0, 27.0),
                (27.0, 27.0),
                (27.0, 18.0),
                (TABLE, 18.0),
            ]),
            centreline: diagonal_centreline,
        },
        DeploymentKind::Wedge => Layout {
            near: Shape::Polygon(vec![(0.0, 0.0), (TABLE, 0.0), (18.0, 12.0)]),
            far: Shape::Polygon(vec![(0.0, TABLE), (TABLE, TABLE), (18.0, 24.0)]),
            centreline: horizontal_centreline,
        },
        DeploymentKind::Diagonal => {
            // 20" of no-man's land across the diagonal, then 8" deep areas.
            let root2 = std::f64::consts::SQRT_2;
            let inner = TABLE - 10.0 * root2;
            let outer = TABLE - 18.0 * root2;
            let far_inner = 2.0 * TABLE - inner;
            let far_outer = 2.0 * TABLE - outer;
            Layout {
                near: Shape::Polygon(vec![(outer, 0.0), (inner, 0.0), (0.0, inner), (0.0, outer)]),
                far: Shape::Polygon(vec![
                    (TABLE, far_inner - TABLE),
                    (TABLE, far_outer - TABLE),
                    (far_outer - TABLE, TABLE),
                    (far_inner - TABLE, TABLE),
                ]),
                centreline: diagonal_centreline,
            }
        }
    }
}

fn band(from_y: f64, to_y: f64) -> Shape {
    Shape::Polygon(vec![
        (0.0, from_y),
        (TABLE, from_y),
        (TABLE, to_y),
        (0.0, to_y),
    ])
}

/// Table y (up from the near edge) to SVG y (down from the top).
fn svg_y(y: f64) -> f64 {
    TABLE - y
}

fn fmt_num(value: f64) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    let text = format!("{rounded:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn shape_svg(shape: &Shape, class: &str) -> String {
    match shape {
        Shape::Polygon(points) => {
            let points: Vec<String> = points
                .iter()
                .map(|(x, y)| format!("{},{}", fmt_num(*x), fmt_num(svg_y(*y))))
                .collect();
            format!(
                "<polygon class=\"{class}\" points=\"{}\"/>",
                points.join(" ")
            )
        }
        Shape::QuarterDisc { corner, radius } => {
            let (cx, cy) = (corner.0, svg_y(corner.1));
            // The two points where the arc meets the table edges, then the arc.
            let toward_x = if cx < TABLE / 2.0 { *radius } else { -radius };
            let toward_y = if cy < TABLE / 2.0 { *radius } else { -radius };
            let start = (cx + toward_x, cy);
            let end = (cx, cy + toward_y);
            let sweep = i32::from((toward_x > 0.0) == (toward_y > 0.0));
            format!(
                "<path class=\"{class}\" d=\"M{},{} L{},{} A{r},{r} 0 0 {sweep} {},{} Z\"/>",
                fmt_num(cx),
                fmt_num(cy),
                fmt_num(start.0),
                fmt_num(start.1),
                fmt_num(end.0),
                fmt_num(end.1),
                r = fmt_num(*radius),
            )
        }
    }
}

/// Renders the map. `title` becomes the accessible name of the image.
pub fn deployment_svg(kind: DeploymentKind, markers: &[MarkerPoint], title: &str) -> String {
    let layout = layout(kind);
    let mut svg = String::with_capacity(2048);
    let escaped_title = escape(title);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-1 -1 38 38\" class=\"deployment-map\" role=\"img\" aria-label=\"{escaped_title}\">\
<title>{escaped_title}</title>\
<style>.table{{fill:#efe9dc;stroke:#333;stroke-width:.15}}.zone-near{{fill:#5a2391;fill-opacity:.35;stroke:#5a2391;stroke-width:.15}}\
.zone-far{{fill:#b5461b;fill-opacity:.35;stroke:#b5461b;stroke-width:.15}}.centreline{{stroke:#333;stroke-width:.12;stroke-dasharray:.6 .4}}\
.grid{{stroke:#000;stroke-opacity:.08;stroke-width:.05}}.marker{{fill:#fff;stroke:#111;stroke-width:.15}}.centre{{stroke:#111;stroke-width:.15}}</style>\
<rect class=\"table\" x=\"0\" y=\"0\" width=\"36\" height=\"36\"/>"
    );
    for inch in (6..36).step_by(6) {
        let _ = write!(
            svg,
            "<line class=\"grid\" x1=\"{inch}\" y1=\"0\" x2=\"{inch}\" y2=\"36\"/><line class=\"grid\" x1=\"0\" y1=\"{inch}\" x2=\"36\" y2=\"{inch}\"/>"
        );
    }
    svg.push_str(&shape_svg(&layout.near, "zone-near"));
    svg.push_str(&shape_svg(&layout.far, "zone-far"));
    let ((x1, y1), (x2, y2)) = layout.centreline;
    let _ = write!(
        svg,
        "<line class=\"centreline\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
        fmt_num(x1),
        fmt_num(svg_y(y1)),
        fmt_num(x2),
        fmt_num(svg_y(y2))
    );
    svg.push_str("<path class=\"centre\" d=\"M17.4,18 H18.6 M18,17.4 V18.6\"/>");
    for MarkerPoint(x, y) in markers {
        let _ = write!(
            svg,
            "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"{MARKER_RADIUS}\"/>",
            fmt_num(*x),
            fmt_num(svg_y(*y))
        );
    }
    svg.push_str("</svg>");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_deployment_draws_two_zones_and_a_centreline() {
        for kind in [
            DeploymentKind::Standard,
            DeploymentKind::Corner,
            DeploymentKind::Flank,
            DeploymentKind::Wedge,
            DeploymentKind::Diagonal,
            DeploymentKind::StandardFirstEdition,
            DeploymentKind::Corners,
        ] {
            let svg = deployment_svg(kind, &[MarkerPoint(9.0, 9.0)], "map <x>");
            assert!(svg.starts_with("<svg"), "{kind:?}");
            assert!(
                svg.contains("zone-near") && svg.contains("zone-far"),
                "{kind:?}"
            );
            assert!(svg.contains("class=\"centreline\""), "{kind:?}");
            assert!(svg.contains("class=\"marker\""), "{kind:?}");
            assert!(svg.contains("map &lt;x&gt;"), "title is escaped");
            assert!(!svg.contains("NaN"), "{kind:?}");
        }
    }

    #[test]
    fn standard_zones_are_eight_inches_deep_at_scale() {
        let svg = deployment_svg(DeploymentKind::Standard, &[], "t");
        // Near zone from y=36 (bottom) up to y=28 in SVG coordinates.
        assert!(svg.contains("points=\"0,36 36,36 36,28 0,28\""), "{svg}");
        assert!(svg.contains("points=\"0,8 36,8 36,0 0,0\""), "{svg}");
    }

    #[test]
    fn wedge_apex_is_twelve_inches_from_the_edge_centre() {
        let svg = deployment_svg(DeploymentKind::Wedge, &[], "t");
        assert!(svg.contains("18,24"), "near apex: {svg}");
        assert!(svg.contains("18,12"), "far apex: {svg}");
    }

    #[test]
    fn corner_zone_is_a_twelve_inch_arc() {
        let svg = deployment_svg(DeploymentKind::Corner, &[], "t");
        assert!(svg.contains("A12,12"), "{svg}");
    }
}
