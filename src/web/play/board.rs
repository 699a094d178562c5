//! The game page's picture of the table, drawn in inches (the SVG's user
//! units are the table's inches, y up as on the table), with what the
//! page's script needs to read on each piece (`data-*`: where it stands,
//! its base, its side). Everything here is public information (where
//! models stand, their health, the zones, the markers, who is acting), so
//! every viewer gets the same picture apart from which side is "yours".
//!
//! Labels never overlap a neighbour's: a model carries only its short
//! label inside its base ("A3"), and the legend beside the table names
//! it; terrain is named at its middle, in small type, with its traits.

use std::fmt::Write;

use soulstone_engine::table::geometry::{Shape, V2};
use soulstone_engine::table::{MarkerKind, TABLE_SIZE, Trait, footprint_shape, inches};
use soulstone_engine::{GameState, Seat};

use super::names::Names;

/// The table's side in inches.
pub fn table_inches() -> f64 {
    inches(TABLE_SIZE)
}

/// Text escaped for SVG markup.
pub(super) fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn seat_class(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "side-a",
        Seat::B => "side-b",
    }
}

/// A terrain trait in words, as the board labels it.
pub fn trait_word(t: Trait) -> &'static str {
    match t {
        Trait::Blocking => "blocking",
        Trait::Climbable => "climbable",
        Trait::Concealing => "concealing",
        Trait::Dense => "dense",
        Trait::Destructible => "destructible",
        Trait::Hazardous => "hazardous",
        Trait::Impassable => "impassable",
        Trait::Severe => "severe",
    }
}

/// The class that colours a piece of terrain by what matters most when
/// moving and seeing.
fn terrain_class(has: impl Fn(Trait) -> bool) -> &'static str {
    if has(Trait::Impassable) || has(Trait::Climbable) {
        "terrain solid"
    } else if has(Trait::Hazardous) {
        "terrain hazardous"
    } else if has(Trait::Dense) || has(Trait::Concealing) {
        "terrain dense"
    } else if has(Trait::Severe) {
        "terrain severe"
    } else {
        "terrain"
    }
}

/// A marker's kind as the board draws it: (class, letter, words).
fn marker_look(kind: MarkerKind, name: &str) -> (&'static str, &'static str, &'static str) {
    match kind {
        MarkerKind::Scheme => ("marker scheme", "S", "scheme marker"),
        MarkerKind::Strategy => ("marker strategy", "T", "strategy marker"),
        MarkerKind::Remains => ("marker remains", "R", "Remains"),
        MarkerKind::Other if name.contains("Corpse") => ("marker remains", "C", "Corpse marker"),
        MarkerKind::Other if name.contains("Scrap") => ("marker remains", "Sc", "Scrap marker"),
        MarkerKind::Other => ("marker other", "", "marker"),
    }
}

struct Svg {
    out: String,
    size: f64,
}

impl Svg {
    fn y(&self, y: f64) -> f64 {
        self.size - y
    }

    fn points(&self, points: &[V2]) -> String {
        points
            .iter()
            .map(|p| format!("{:.3},{:.3}", p.x, self.y(p.y)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn shape(&mut self, shape: &Shape, attrs: &str, title: &str) {
        let title = esc(title);
        match shape {
            Shape::Circle { center, radius } => {
                let _ = write!(
                    self.out,
                    r#"<circle cx="{:.3}" cy="{:.3}" r="{:.3}" {attrs}><title>{title}</title></circle>"#,
                    center.x,
                    self.y(center.y),
                    radius
                );
            }
            Shape::Polygon { points } => {
                let points = self.points(points);
                let _ = write!(
                    self.out,
                    r#"<polygon points="{points}" {attrs}><title>{title}</title></polygon>"#
                );
            }
        }
    }

    fn text(&mut self, at: V2, class: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{:.3}" y="{:.3}" class="{class}">{}</text>"#,
            at.x,
            self.y(at.y),
            esc(text)
        );
    }
}

/// The middle of a shape, for its label.
fn middle(shape: &Shape) -> V2 {
    match shape {
        Shape::Circle { center, .. } => *center,
        Shape::Polygon { points } => {
            let n = points.len().max(1) as f64;
            let (x, y) = points
                .iter()
                .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
            V2 { x: x / n, y: y / n }
        }
    }
}

/// The table as SVG: zones, terrain with its name and traits, markers by
/// kind in their owner's colour, every model with its short label and a
/// health bar, and the acting model outlined with its walk and reach.
pub fn render(state: &GameState, names: &Names, you: Option<Seat>) -> String {
    let size = table_inches();
    let mut svg = Svg {
        out: String::with_capacity(16 * 1024),
        size,
    };
    let _ = write!(
        svg.out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board-svg" viewBox="0 0 {size} {size}" data-size="{size}" role="img" aria-labelledby="board-title"><title id="board-title">The table, {size} inches square: models, terrain and markers</title><rect class="cloth" width="{size}" height="{size}"/>"#
    );
    let _ = write!(svg.out, r#"<g class="grid">"#);
    for line in (6..size as u32).step_by(6) {
        let at = f64::from(line);
        let _ = write!(
            svg.out,
            r#"<line x1="{at}" y1="0" x2="{at}" y2="{size}"/><line x1="0" y1="{at}" x2="{size}" y2="{at}"/>"#
        );
    }
    svg.out.push_str("</g>");
    zones(&mut svg, state, you);
    terrain(&mut svg, state);
    markers(&mut svg, state, you);
    reach(&mut svg, state);
    models(&mut svg, state, names);
    // The page's script draws paths, rulers and previews here.
    svg.out
        .push_str(r#"<g class="overlay" data-overlay></g></svg>"#);
    svg.out
}

fn zones(svg: &mut Svg, state: &GameState, you: Option<Seat>) {
    let Some(encounter) = state.encounter.as_deref() else {
        return;
    };
    let layout = encounter.setup.layout();
    for seat in Seat::BOTH {
        // Zones exist once the attacker has chosen theirs.
        if encounter.zone_of(seat).is_none() {
            continue;
        }
        let outline = layout.zone_outline(encounter.layout_side(seat));
        let title = if you == Some(seat) {
            "Your deployment zone".to_string()
        } else if you.is_some() {
            "Your opponent's deployment zone".to_string()
        } else {
            format!("{}'s deployment zone", seat.label())
        };
        let attrs = format!(
            r#"class="zone {}" data-zone="{}""#,
            seat_class(seat),
            seat_letter(seat)
        );
        svg.shape(&outline, &attrs, &title);
    }
}

fn seat_letter(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "a",
        Seat::B => "b",
    }
}

fn terrain(svg: &mut Svg, state: &GameState) {
    for piece in state.terrain.iter() {
        let has = |t: Trait| piece.traits.has(t);
        let traits: Vec<&str> = Trait::ALL
            .iter()
            .filter(|t| has(**t))
            .map(|t| trait_word(*t))
            .collect();
        let title = format!(
            "{}: height {}\", {}",
            piece.name,
            inches(piece.top()),
            if traits.is_empty() {
                "no traits".to_string()
            } else {
                traits.join(", ")
            }
        );
        let class = terrain_class(has);
        let main = footprint_shape(&piece.footprint);
        svg.shape(&main, &format!(r#"class="{class}""#), &title);
        for part in &piece.parts {
            svg.shape(
                &footprint_shape(&part.footprint),
                &format!(r#"class="{class}""#),
                &title,
            );
        }
        let at = middle(&main);
        svg.text(at, "terrain-name", &piece.name);
        if !traits.is_empty() {
            svg.text(
                V2 {
                    x: at.x,
                    y: at.y - 0.55,
                },
                "terrain-traits",
                &traits.join(", "),
            );
        }
    }
}

fn markers(svg: &mut Svg, state: &GameState, you: Option<Seat>) {
    for marker in state.markers.iter() {
        let (class, letter, kind) = marker_look(marker.kind, &marker.name);
        let owner = match marker.owner {
            Some(seat) => seat_class(seat),
            None => "neutral",
        };
        let whose = match (marker.owner, you) {
            (Some(seat), Some(me)) if seat == me => "your ".to_string(),
            (Some(_), Some(_)) => "your opponent's ".to_string(),
            (Some(seat), None) => format!("{}'s ", seat.label()),
            (None, _) => String::new(),
        };
        let title = if marker.name.is_empty() || marker.name == kind {
            format!("{whose}{kind}")
        } else {
            format!("{whose}{} ({kind})", marker.name)
        };
        let center = marker.at.v2();
        let r = marker.base.radius();
        let attrs = format!(
            r#"class="{class} {owner}" data-marker="{}" data-x="{:.3}" data-y="{:.3}" data-r="{r:.3}""#,
            marker.id.0, center.x, center.y
        );
        let shape = if marker.kind == MarkerKind::Scheme {
            // A diamond: scheme markers read apart from round ones at a glance.
            Shape::Polygon {
                points: vec![
                    V2 {
                        x: center.x,
                        y: center.y + r,
                    },
                    V2 {
                        x: center.x + r,
                        y: center.y,
                    },
                    V2 {
                        x: center.x,
                        y: center.y - r,
                    },
                    V2 {
                        x: center.x - r,
                        y: center.y,
                    },
                ],
            }
        } else if marker.kind == MarkerKind::Strategy {
            Shape::Polygon {
                points: vec![
                    V2 {
                        x: center.x - r * 0.85,
                        y: center.y - r * 0.85,
                    },
                    V2 {
                        x: center.x + r * 0.85,
                        y: center.y - r * 0.85,
                    },
                    V2 {
                        x: center.x + r * 0.85,
                        y: center.y + r * 0.85,
                    },
                    V2 {
                        x: center.x - r * 0.85,
                        y: center.y + r * 0.85,
                    },
                ],
            }
        } else {
            Shape::Circle { center, radius: r }
        };
        svg.shape(&shape, &attrs, &title);
        if !letter.is_empty() {
            svg.text(
                V2 {
                    x: center.x,
                    y: center.y - 0.17,
                },
                "marker-letter",
                letter,
            );
        }
    }
}

/// The acting model's walk and the reach of its actions, as rings
/// measured from its base's edge (the labels are in the side panel).
fn reach(svg: &mut Svg, state: &GameState) {
    let Some(model) = state.acting_model().and_then(|id| state.model(id)) else {
        return;
    };
    let Some(placement) = model.placement else {
        return;
    };
    let center = placement.at.v2();
    let base = model.card.base.radius();
    let speed = state.tokens.speed_of(model);
    let mut ranges: Vec<u8> = model
        .card
        .actions
        .iter()
        .map(|a| a.range)
        .filter(|r| *r > 0)
        .collect();
    ranges.sort_unstable();
    ranges.dedup();
    svg.shape(
        &Shape::Circle {
            center,
            radius: base + f64::from(speed),
        },
        r#"class="ring walk""#,
        &format!("walk: {speed} inches"),
    );
    for range in ranges {
        svg.shape(
            &Shape::Circle {
                center,
                radius: base + f64::from(range),
            },
            r#"class="ring range""#,
            &format!("{range} inches"),
        );
    }
}

fn models(svg: &mut Svg, state: &GameState, names: &Names) {
    let acting = state.acting_model();
    for model in state.models.iter().filter(|m| m.in_play()) {
        let Some(placement) = model.placement else {
            continue;
        };
        let c = placement.at.v2();
        let r = model.card.base.radius();
        let short = names.short(model.id);
        let name = names.name(model.id);
        let side = names.side(model.id);
        let health = format!("{} of {} health", model.health, model.card.max_health);
        let mut class = format!("model {}", seat_class(model.owner));
        if acting == Some(model.id) {
            class.push_str(" acting");
        }
        let _ = write!(
            svg.out,
            r##"<a href="#card-{id}" class="{class}" data-model="{id}" data-owner="{owner}" data-x="{x:.3}" data-y="{y:.3}" data-r="{r:.3}" data-z="{z:.3}" data-speed="{speed}" data-name="{name_attr}"><title>{short}: {name_attr} ({side}), {health}</title>"##,
            id = model.id.0,
            owner = seat_letter(model.owner),
            x = c.x,
            y = c.y,
            z = inches(placement.z),
            speed = model.card.speed,
            name_attr = esc(&name),
        );
        let _ = write!(
            svg.out,
            r#"<circle class="base" cx="{:.3}" cy="{:.3}" r="{r:.3}"/>"#,
            c.x,
            svg.y(c.y)
        );
        svg.text(
            V2 {
                x: c.x,
                y: c.y - 0.14,
            },
            "model-label",
            &short,
        );
        let fraction = if model.card.max_health == 0 {
            0.0
        } else {
            f64::from(model.health) / f64::from(model.card.max_health)
        };
        let (bar_x, bar_y) = (c.x - r, svg.y(c.y - r) + 0.08);
        let _ = write!(
            svg.out,
            r#"<rect class="health-bar" x="{bar_x:.3}" y="{bar_y:.3}" width="{:.3}" height="0.18"/><rect class="health" x="{bar_x:.3}" y="{bar_y:.3}" width="{:.3}" height="0.18"/></a>"#,
            2.0 * r,
            2.0 * r * fraction
        );
    }
}
