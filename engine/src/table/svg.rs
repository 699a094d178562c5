//! A debug picture of a table: bases, markers, terrain and the sight lines
//! of queries, as an SVG a person can open to see what the engine decided.

use std::fmt::Write;

use super::geometry::{Shape, V2};
use super::{Board, TABLE_SIZE, Trait, inches};

/// Pixels per inch in the drawing.
const SCALE: f64 = 20.0;

/// A line to draw over the table (a sight line, or a path).
#[derive(Debug, Clone, PartialEq)]
pub struct Overlay {
    pub from: V2,
    pub to: V2,
    /// Drawn green when true (an unblocked sight line), red when false.
    pub clear: bool,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The table as SVG, y pointing up as on the table.
pub fn render(board: &Board, overlays: &[Overlay]) -> String {
    let size = inches(TABLE_SIZE) * SCALE;
    let y = |v: f64| size - v * SCALE;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" font-family="sans-serif" font-size="10">"##
    );
    let _ = writeln!(
        out,
        r##"<rect width="{size}" height="{size}" fill="#f4f1e8" stroke="#333"/>"##
    );
    for obstacle in &board.obstacles {
        let fill = if obstacle.has(Trait::Impassable) || obstacle.has(Trait::Climbable) {
            "#8a7f70"
        } else if obstacle.has(Trait::Dense) || obstacle.has(Trait::Concealing) {
            "#9cbf8f"
        } else if obstacle.has(Trait::Hazardous) {
            "#e0a060"
        } else if obstacle.has(Trait::Severe) {
            "#c8b48a"
        } else {
            "#b0a898"
        };
        let traits: Vec<String> = Trait::ALL
            .iter()
            .filter(|t| obstacle.has(**t))
            .map(|t| format!("{t:?}").to_lowercase())
            .collect();
        let title = format!(
            "{} (Ht {} to {}; {})",
            obstacle.name,
            obstacle.bottom,
            obstacle.top,
            traits.join(", ")
        );
        match &obstacle.shape {
            Shape::Circle { center, radius } => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{fill}" fill-opacity="0.7" stroke="#333"><title>{}</title></circle>"##,
                    center.x * SCALE,
                    y(center.y),
                    radius * SCALE,
                    escape(&title)
                );
            }
            Shape::Polygon { points } => {
                let list: Vec<String> = points
                    .iter()
                    .map(|p| format!("{:.1},{:.1}", p.x * SCALE, y(p.y)))
                    .collect();
                let _ = writeln!(
                    out,
                    r##"<polygon points="{}" fill="{fill}" fill-opacity="0.7" stroke="#333"><title>{}</title></polygon>"##,
                    list.join(" "),
                    escape(&title)
                );
            }
        }
    }
    for marker in &board.table.markers {
        let c = marker.at.v2();
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#555" stroke-dasharray="3 2"><title>{}</title></circle>"##,
            c.x * SCALE,
            y(c.y),
            marker.base.radius() * SCALE,
            escape(&marker.name)
        );
    }
    for piece in &board.table.pieces {
        let c = piece.at.v2();
        let colour = match piece.seat {
            super::Seat::A => "#2b5fa8",
            super::Seat::B => "#a83232",
        };
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{colour}" fill-opacity="0.8" stroke="#111"><title>{} (Sz {}, elevation {})</title></circle>"##,
            c.x * SCALE,
            y(c.y),
            piece.base.radius() * SCALE,
            escape(&piece.name),
            piece.sz,
            inches(piece.z)
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#000">{}</text>"##,
            c.x * SCALE,
            y(c.y) - piece.base.radius() * SCALE - 3.0,
            escape(&piece.name)
        );
    }
    for line in overlays {
        let colour = if line.clear { "#1a9c3a" } else { "#d0202a" };
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"/>"##,
            line.from.x * SCALE,
            y(line.from.y),
            line.to.x * SCALE,
            y(line.to.y)
        );
    }
    out.push_str("</svg>\n");
    out
}
