//! The Mage Knight battlefield drawn as SVG for the game page: terrain by
//! kind with its name, the deployment areas, the objectives in their
//! controller's colour, and each warrior with its front arc, its number,
//! its dial's values and its action tokens.

use std::fmt::Write as _;

use soulstone_engine::Seat;
use soulstone_engine::mage_knight::battlefield::{
    BASE_RADIUS, DEPLOYMENT_DEPTH, DEPLOYMENT_MARGIN, Elevation, FRONT_ARC_HALF, OBJECTIVE,
    Outline, SIZE, TerrainKind,
};
use soulstone_engine::mage_knight::{Battle, words};
use soulstone_engine::table::inches;

/// Pixels per inch of the drawing (it scales with the page).
const SCALE: f64 = 15.0;

fn px(value: f64) -> f64 {
    value * SCALE
}

/// Table y grows upward; SVG y downward.
fn py(value: f64) -> f64 {
    px(SIZE - value)
}

use super::super::board::esc as escape;

fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::A => "#2b6cb0",
        Seat::B => "#c53030",
    }
}

fn terrain_style(kind: TerrainKind) -> (&'static str, &'static str) {
    let fill = match kind {
        TerrainKind::Clear => "#e9dcc0",
        TerrainKind::Hindering => "#9ae6b4",
        TerrainKind::Concealing => "#c6f6d5",
        TerrainKind::Blocking => "#718096",
        TerrainKind::Chasm => "#2d3748",
        TerrainKind::ShallowWater => "#90cdf4",
        TerrainKind::DeepWater => "#3182ce",
    };
    (fill, kind.words())
}

pub fn svg(battle: &Battle) -> String {
    let size = px(SIZE);
    let mut out = format!(
        r##"<svg viewBox="0 0 {size} {size}" role="img" aria-label="The battlefield, 36 inches square" class="mk-board" xmlns="http://www.w3.org/2000/svg"><rect width="{size}" height="{size}" fill="#f7f3e8"/>"##
    );
    // Deployment areas.
    for seat in Seat::BOTH {
        let y = match seat {
            Seat::A => DEPLOYMENT_DEPTH,
            Seat::B => SIZE,
        };
        let _ = write!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{}" fill-opacity="0.08" stroke="{}" stroke-dasharray="4 3"><title>{}'s deployment area</title></rect>"##,
            px(DEPLOYMENT_MARGIN),
            py(y),
            px(SIZE - 2.0 * DEPLOYMENT_MARGIN),
            px(DEPLOYMENT_DEPTH),
            seat_colour(seat),
            seat_colour(seat),
            seat.label()
        );
    }
    for (index, feature) in battle.terrain.iter().enumerate() {
        let (fill, kind) = terrain_style(feature.kind);
        let taken = u8::try_from(index).map_or(0, |i| battle.structure_damage(i));
        let built = words::construction(feature, taken)
            .map(|w| format!("; {w}"))
            .unwrap_or_default();
        let label = match &feature.elevation {
            Elevation::Ground => format!("{} ({kind}{built})", feature.name),
            Elevation::Elevated => format!("{} ({kind}, elevated{built})", feature.name),
            Elevation::Abrupt { .. } => {
                format!("{} ({kind}, abrupt elevated{built})", feature.name)
            }
        };
        // A raised feature's edge is drawn heavy.
        let edge = if feature.is_elevated() { 3 } else { 1 };
        let (cx, cy) = match &feature.outline {
            Outline::Circle { center, radius } => {
                let _ = write!(
                    out,
                    r##"<circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#4a5568" stroke-width="{edge}"><title>{}</title></circle>"##,
                    px(inches(center.x)),
                    py(inches(center.y)),
                    px(inches(*radius)),
                    escape(&label)
                );
                (px(inches(center.x)), py(inches(center.y)))
            }
            Outline::Polygon { points } => {
                let list: Vec<String> = points
                    .iter()
                    .map(|p| format!("{},{}", px(inches(p.x)), py(inches(p.y))))
                    .collect();
                let _ = write!(
                    out,
                    r##"<polygon points="{}" fill="{fill}" stroke="#4a5568" stroke-width="{edge}"><title>{}</title></polygon>"##,
                    list.join(" "),
                    escape(&label)
                );
                let n = points.len().max(1) as f64;
                (
                    px(points.iter().map(|p| inches(p.x)).sum::<f64>() / n),
                    py(points.iter().map(|p| inches(p.y)).sum::<f64>() / n),
                )
            }
        };
        // An abrupt feature's access points, over it.
        if let Elevation::Abrupt { access } = &feature.elevation {
            for point in access {
                let _ = write!(
                    out,
                    r##"<circle cx="{}" cy="{}" r="4" fill="#fff" stroke="#1a202c" stroke-width="2"><title>{}: an access point</title></circle>"##,
                    px(inches(point.x)),
                    py(inches(point.y)),
                    escape(&feature.name)
                );
            }
        }
        // On the board, a constructed feature shows what is left of it.
        let shown = match feature.construction {
            Some(c) => format!(
                "{} (def {}, {}/{} left)",
                feature.name,
                c.defense,
                c.structure.saturating_sub(taken),
                c.structure
            ),
            None => label,
        };
        let _ = write!(
            out,
            r##"<text x="{cx}" y="{cy}" font-size="10" text-anchor="middle" fill="#1a202c">{}</text>"##,
            escape(&shown)
        );
    }
    for (i, objective) in battle.objectives.iter().enumerate() {
        let colour = objective.controller.map_or("#a0aec0", seat_colour);
        let holder = objective
            .controller
            .map_or_else(|| "no one".to_owned(), |s| s.label().to_owned());
        let _ = write!(
            out,
            r##"<circle cx="{}" cy="{}" r="{}" fill="{colour}" fill-opacity="0.5" stroke="#1a202c" stroke-width="2"><title>Objective {}: held by {holder}</title></circle><text x="{}" y="{}" font-size="11" text-anchor="middle" font-weight="bold">O{}</text>"##,
            px(inches(objective.at.x)),
            py(inches(objective.at.y)),
            px(OBJECTIVE / 2.0),
            i + 1,
            px(inches(objective.at.x)),
            py(inches(objective.at.y)) + 4.0,
            i + 1
        );
    }
    // Bombardment tokens waiting to fall: the area of effect, and the
    // arrow along the line of fire they were placed on.
    for bombardment in &battle.bombardments {
        let Some(by) = battle.warrior(bombardment.attacker) else {
            continue;
        };
        let radius = by.card.bombardment.as_ref().map_or(1, |t| t.radius);
        let colour = seat_colour(bombardment.seat);
        for token in &bombardment.tokens {
            let (cx, cy) = (px(inches(token.at.x)), py(inches(token.at.y)));
            let r = px(f64::from(radius));
            let rad = f64::from(token.heading).to_radians();
            let (tx, ty) = (cx + r * rad.cos(), cy - r * rad.sin());
            let _ = write!(
                out,
                r##"<g class="mk-bombardment"><title>{}'s bombardment token: it falls at the start of {}'s next turn</title><circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 3"/><line x1="{cx}" y1="{cy}" x2="{tx}" y2="{ty}" stroke="{colour}" stroke-width="2"/><text x="{cx}" y="{}" font-size="9" text-anchor="middle" fill="{colour}">B#{}</text></g>"##,
                escape(&by.card.name),
                bombardment.seat.label(),
                cy + 3.0,
                by.id.0
            );
        }
    }
    // Dropped items: a small diamond each, named.
    for (i, loose) in battle.loose_items.iter().enumerate() {
        let (cx, cy) = (px(inches(loose.at.x)), py(inches(loose.at.y)));
        let r = px(soulstone_engine::mage_knight::items::TOKEN_RADIUS);
        let _ = write!(
            out,
            r##"<g class="mk-item"><title>Item {}: {}, dropped here</title><polygon points="{cx},{} {},{cy} {cx},{} {},{cy}" fill="#d69e2e" stroke="#1a202c" stroke-width="1"/><text x="{cx}" y="{}" font-size="8" text-anchor="middle">{}</text></g>"##,
            i + 1,
            escape(&loose.item.name),
            cy - r,
            cx + r,
            cy + r,
            cx - r,
            cy + r + 9.0,
            escape(&loose.item.name)
        );
    }
    for warrior in battle.standing() {
        let at = warrior.center();
        let (cx, cy) = (px(at.x), py(at.y));
        let r = px(BASE_RADIUS);
        let colour = seat_colour(warrior.seat);
        // The front arc as a wedge from the center.
        let start = f64::from(warrior.facing) - FRONT_ARC_HALF;
        let end = f64::from(warrior.facing) + FRONT_ARC_HALF;
        let point = |deg: f64| {
            let rad = deg.to_radians();
            (cx + r * rad.cos(), cy - r * rad.sin())
        };
        let (x1, y1) = point(start);
        let (x2, y2) = point(end);
        let click = warrior.click();
        let tokens = "●".repeat(usize::from(warrior.tokens));
        // A soaring warrior's flight stand: a dashed ring around its base.
        if warrior.soaring {
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-dasharray="3 2"><title>{} is at soaring level</title></circle>"##,
                r + 4.0,
                escape(&warrior.card.name)
            );
        }
        let _ = write!(
            out,
            r##"<g class="mk-warrior"><title>{} ({}): speed {}, attack {}, defense {}, damage {}; {} damage taken of {}; {} action tokens</title><circle cx="{cx}" cy="{cy}" r="{r}" fill="white" stroke="{colour}" stroke-width="2"/><path d="M {cx} {cy} L {x1} {y1} A {r} {r} 0 0 0 {x2} {y2} Z" fill="{colour}" fill-opacity="0.45"/><text x="{cx}" y="{}" font-size="10" text-anchor="middle" font-weight="bold">{}</text><text x="{cx}" y="{}" font-size="8" text-anchor="middle">{}/{}/{}/{}{}</text></g>"##,
            escape(&warrior.card.name),
            warrior.seat.label(),
            click.speed,
            click.attack,
            click.defense,
            click.damage,
            warrior.damage,
            warrior.card.clicks(),
            warrior.tokens,
            cy + 3.5,
            warrior.id.0,
            cy + r + 9.0,
            click.speed,
            click.attack,
            click.defense,
            click.damage,
            if tokens.is_empty() {
                String::new()
            } else {
                format!(" {tokens}")
            }
        );
    }
    // Inch marks along two edges, for typing a point.
    for inch in (6..36).step_by(6) {
        let v = px(f64::from(inch));
        let _ = write!(
            out,
            r##"<text x="{v}" y="{}" font-size="9" text-anchor="middle" fill="#718096">{inch}</text><text x="2" y="{}" font-size="9" fill="#718096">{inch}</text>"##,
            size - 2.0,
            py(f64::from(inch)) + 3.0
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use soulstone_engine::fairness::Bytes32;
    use soulstone_engine::mage_knight::battlefield::Feature;
    use soulstone_engine::mage_knight::{Setup, start};
    use soulstone_engine::table::{Point, milli};

    #[test]
    fn raised_terrain_is_named_and_its_access_points_marked() {
        let roster = crate::content::mage_knight_roster().expect("shipped content");
        let army = roster.field(&roster.armies()[0]).expect("a ready army");
        let point = |x: f64, y: f64| Point {
            x: milli(x),
            y: milli(y),
        };
        let plateau = Feature {
            name: "the Plateau".into(),
            kind: TerrainKind::Clear,
            outline: Outline::Circle {
                center: point(18.0, 18.0),
                radius: milli(3.0),
            },
            elevation: Elevation::Abrupt {
                access: vec![point(15.0, 18.0)],
            },
            construction: None,
        };
        let battle = start(Setup {
            seed: Bytes32::default(),
            build_total: 300,
            rounds: 12,
            armies: [army.clone(), army],
            terrain: vec![plateau],
        })
        .expect("starts");
        let drawn = svg(&battle);
        assert!(
            drawn.contains("the Plateau (clear, abrupt elevated)"),
            "{drawn}"
        );
        assert!(drawn.contains("the Plateau: an access point"));
        assert!(
            drawn.contains(r#"stroke-width="3""#),
            "a raised edge is heavy"
        );
    }
}
