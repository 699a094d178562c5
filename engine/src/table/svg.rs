//! A picture of a table: terrain, markers, bases and whatever a reader
//! needs drawn over them (deployment zones, a model's ranges, sight lines).
//! The game page shows it to players; scenario files draw it to show what
//! the engine decided.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::geometry::{Shape, V2};
use super::{Board, ObjectId, Seat, TABLE_SIZE, Trait, inches};

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

/// A distance drawn around a base: how far a model may walk, or reach with
/// an action (measured from the base's edge, so the ring is that much
/// wider than the base).
#[derive(Debug, Clone, PartialEq)]
pub struct Ring {
    pub center: V2,
    /// In inches from the centre: the base's radius plus the distance.
    pub radius: f64,
    pub label: String,
}

/// Everything a picture shows beyond terrain, markers and bases.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picture {
    pub lines: Vec<Overlay>,
    /// Each seat's deployment zone, drawn under everything else.
    pub zones: Vec<(Seat, Shape)>,
    /// A short line drawn under a base's name (health and tokens).
    pub notes: BTreeMap<ObjectId, String>,
    pub rings: Vec<Ring>,
    /// The base drawn outlined (the acting model).
    pub highlight: Option<ObjectId>,
}

impl Picture {
    /// Just lines over the table.
    pub fn lines(lines: Vec<Overlay>) -> Self {
        Self {
            lines,
            ..Self::default()
        }
    }
}

fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "#2b5fa8",
        Seat::B => "#a83232",
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The table as SVG, y pointing up as on the table.
pub fn render(board: &Board, picture: &Picture) -> String {
    let size = inches(TABLE_SIZE) * SCALE;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" font-family="sans-serif" font-size="10" role="img" aria-label="The table, 36 inches square">"##
    );
    let _ = writeln!(
        out,
        r##"<rect width="{size}" height="{size}" fill="#f4f1e8" stroke="#333"/>"##
    );
    for (seat, zone) in &picture.zones {
        let colour = seat_colour(*seat);
        let title = format!("Player {}'s deployment zone", seat.label());
        match zone {
            Shape::Polygon { points: corners } => {
                let _ = writeln!(
                    out,
                    r##"<polygon class="zone" points="{}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-dasharray="6 4"><title>{title}</title></polygon>"##,
                    svg_points(corners)
                );
            }
            Shape::Circle { center, radius } => {
                let _ = writeln!(
                    out,
                    r##"<circle class="zone" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-dasharray="6 4"><title>{title}</title></circle>"##,
                    center.x * SCALE,
                    flip_y(center.y),
                    radius * SCALE
                );
            }
        }
    }
    draw_obstacles(&mut out, board);
    for marker in board.table.markers.iter() {
        let c = marker.at.v2();
        let _ = writeln!(
            out,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#555" stroke-dasharray="3 2"><title>{}</title></circle>"##,
            c.x * SCALE,
            flip_y(c.y),
            marker.base.radius() * SCALE,
            escape(&marker.name)
        );
    }
    for (i, ring) in picture.rings.iter().enumerate() {
        // Labels alternate above and below their rings, so that the rings
        // of one model do not write over each other.
        let label_y = if i % 2 == 0 {
            flip_y(ring.center.y + ring.radius) - 2.0
        } else {
            flip_y(ring.center.y - ring.radius) + 10.0
        };
        let _ = writeln!(
            out,
            r##"<circle class="range" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="none" stroke="#6b4fa0" stroke-dasharray="4 3"><title>{}</title></circle>"##,
            ring.center.x * SCALE,
            flip_y(ring.center.y),
            ring.radius * SCALE,
            escape(&ring.label)
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{label_y:.1}" text-anchor="middle" fill="#6b4fa0">{}</text>"##,
            ring.center.x * SCALE,
            escape(&ring.label)
        );
    }
    draw_pieces(&mut out, board, picture);
    for line in &picture.lines {
        let colour = if line.clear { "#1a9c3a" } else { "#d0202a" };
        let _ = writeln!(
            out,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="2"/>"##,
            line.from.x * SCALE,
            flip_y(line.from.y),
            line.to.x * SCALE,
            flip_y(line.to.y)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A height on the table as the SVG's y, which points down.
fn flip_y(v: f64) -> f64 {
    inches(TABLE_SIZE) * SCALE - v * SCALE
}

/// Corners as an SVG `points` list.
fn svg_points(points: &[V2]) -> String {
    points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.x * SCALE, flip_y(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The terrain, coloured by its traits, each named with its heights and
/// traits in its title.
fn draw_obstacles(out: &mut String, board: &Board) {
    for obstacle in board.obstacles() {
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
                    flip_y(center.y),
                    radius * SCALE,
                    escape(&title)
                );
            }
            Shape::Polygon { points: corners } => {
                let _ = writeln!(
                    out,
                    r##"<polygon points="{}" fill="{fill}" fill-opacity="0.7" stroke="#333"><title>{}</title></polygon>"##,
                    svg_points(corners),
                    escape(&title)
                );
            }
        }
    }
}

/// The models' bases in their crew's colour, with their names above and
/// any note below.
fn draw_pieces(out: &mut String, board: &Board, picture: &Picture) {
    for piece in &board.table.pieces {
        let c = piece.at.v2();
        let colour = seat_colour(piece.seat);
        let note = picture.notes.get(&piece.id);
        let (stroke, width) = if picture.highlight == Some(piece.id) {
            ("#f2b400", 4)
        } else {
            ("#111", 1)
        };
        let _ = writeln!(
            out,
            r##"<circle class="piece" data-piece="{}" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{colour}" fill-opacity="0.8" stroke="{stroke}" stroke-width="{width}"><title>{} (Sz {}, elevation {}){}</title></circle>"##,
            piece.id.0,
            c.x * SCALE,
            flip_y(c.y),
            piece.base.radius() * SCALE,
            escape(&piece.name),
            piece.sz,
            inches(piece.z),
            note.map(|n| format!(": {}", escape(n))).unwrap_or_default()
        );
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#000">{}</text>"##,
            c.x * SCALE,
            flip_y(c.y) - piece.base.radius() * SCALE - 3.0,
            escape(&piece.name)
        );
        if let Some(note) = note {
            let _ = writeln!(
                out,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#000" font-size="9">{}</text>"##,
                c.x * SCALE,
                flip_y(c.y) + piece.base.radius() * SCALE + 10.0,
                escape(note)
            );
        }
    }
}
