//! Running a table scenario's checks: each kind of check asks the table
//! module and compares its answer with the file's.

use super::*;

impl TableScenario {
    /// Runs one check: `None` when the table agrees with it.
    pub(super) fn run_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        match check {
            Check::Distance { .. }
            | Check::Within { .. }
            | Check::CompletelyWithin { .. }
            | Check::BaseContact { .. }
            | Check::FriendlyEdges { .. }
            | Check::InHalf { .. }
            | Check::Supported { .. }
            | Check::EffectiveSize { .. }
            | Check::MeleeReaches { .. }
            | Check::Engaged { .. }
            | Check::Pulse { .. }
            | Check::AreaBetween { .. } => self.measure_check(board, check),
            Check::Los { .. } | Check::Cover { .. } | Check::Concealment { .. } => {
                self.sight_check(board, check)
            }
            Check::Move { .. } => self.move_check(board, check),
            Check::Fall { .. } | Check::Jump { .. } | Check::Scale { .. } => {
                self.climb_check(board, check)
            }
            Check::Place { .. } | Check::PushAround { .. } | Check::Push { .. } => {
                self.place_check(board, check)
            }
        }
    }

    fn body_of(&self, board: &Board, name: &str) -> Result<crate::table::Body, TableScenarioError> {
        Ok(board.body(Target::Object(self.id(name)?))?)
    }

    fn object(&self, name: &str) -> Result<Target, TableScenarioError> {
        Ok(Target::Object(self.id(name)?))
    }

    /// Checks of measuring: distances, contact, halves, support, engagement, pulses and areas.
    fn measure_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        let body = |name: &str| self.body_of(board, name);
        Ok(match check {
            Check::Distance { a, b, inches } => compare_f(
                "distance",
                *inches,
                measure::distance(board.edition, &body(a)?, &body(b)?),
            ),
            Check::Within {
                a,
                b,
                inches,
                expect,
            } => compare_b(
                "within",
                *expect,
                measure::within(board.edition, &body(a)?, &body(b)?, *inches),
            ),
            Check::CompletelyWithin {
                a,
                b,
                inches,
                expect,
            } => compare_b(
                "completely within",
                *expect,
                measure::completely_within(&body(a)?, &body(b)?, *inches),
            ),
            Check::BaseContact { a, b, expect } => compare_b(
                "base contact",
                *expect,
                measure::base_contact(&body(a)?, &body(b)?),
            ),
            Check::FriendlyEdges {
                deployment,
                seat,
                expect,
            } => {
                let actual = measure::Layout {
                    deployment: *deployment,
                }
                .friendly_edges(*seat);
                (actual != *expect)
                    .then(|| format!("friendly edges: expected {expect:?}, got {actual:?}"))
            }
            Check::InHalf {
                model,
                deployment,
                seat,
                expect,
            } => {
                let half = measure::Layout {
                    deployment: *deployment,
                }
                .half(*seat);
                let center = body(model)?.center;
                compare_b("in the half", *expect, half.signed_distance(center) <= 0.0)
            }
            Check::Supported { model, expect } => {
                let b = body(model)?;
                compare_b(
                    "supported",
                    *expect,
                    measure::supported(board, b.center, b.radius, b.z),
                )
            }
            Check::EffectiveSize { model, expect } => {
                compare_f("effective size", *expect, body(model)?.effective_size())
            }
            Check::MeleeReaches {
                attacker,
                target,
                expect,
            } => compare_b(
                "melee reaches",
                *expect,
                measure::melee_reaches(&body(attacker)?, &body(target)?),
            ),
            Check::Engaged { model, expect } => compare_names(
                "engaged with",
                expect,
                &self.names(&measure::engaged_with(board, self.id(model)?)?),
            ),
            Check::Pulse {
                source,
                inches,
                expect,
            } => compare_names(
                "pulse",
                expect,
                &self.names(&measure::pulse(board, self.id(source)?, *inches)?),
            ),
            Check::AreaBetween { corners, expect } => {
                let ids: Vec<ObjectId> = corners
                    .iter()
                    .map(|c| self.id(c))
                    .collect::<Result<_, _>>()?;
                compare_names(
                    "area between",
                    expect,
                    &self.names(&measure::area_between(board, &ids)?),
                )
            }
            other => {
                return Err(misrouted(
                    other,
                    "measuring: distances, contact, halves, support, engagement, pulses and areas",
                ));
            }
        })
    }

    /// Checks of sight, cover and concealment.
    fn sight_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        let object = |name: &str| self.object(name);
        Ok(match check {
            Check::Los {
                from,
                to,
                to_point,
                expect,
            } => {
                let target = self.target(to.as_deref(), *to_point)?;
                compare_b(
                    "line of sight",
                    *expect,
                    sight::line_of_sight(board, object(from)?, target)?,
                )
            }
            Check::Cover {
                attacker,
                target,
                expect,
            } => {
                let actual = match sight::cover(board, object(attacker)?, object(target)?)? {
                    None => CoverExpectation::None,
                    Some(Cover::Elevation) => CoverExpectation::Elevation,
                    Some(Cover::Terrain(_)) => CoverExpectation::Terrain,
                };
                (actual != *expect).then(|| format!("cover: expected {expect:?}, got {actual:?}"))
            }
            Check::Concealment {
                attacker,
                target,
                expect,
            } => compare_b(
                "concealment",
                *expect,
                sight::concealment(board, object(attacker)?, object(target)?)?.is_some(),
            ),
            other => return Err(misrouted(other, "sight, cover and concealment")),
        })
    }

    /// Checks of a Walk, Charge or push along a path.
    fn move_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        Ok(match check {
            Check::Move {
                model,
                kind,
                sp,
                path,
                expect,
                cost,
                hazards,
                fall_damage,
                falls_on_the_way,
                left_engagement,
            } => {
                let waypoints = path
                    .iter()
                    .map(|p| match p.as_slice() {
                        [x, y] => Ok(Waypoint {
                            x: milli(*x),
                            y: milli(*y),
                            z: 0,
                        }),
                        [x, y, z] => Ok(Waypoint {
                            x: milli(*x),
                            y: milli(*y),
                            z: milli(*z),
                        }),
                        _ => Err(TableScenarioError::Invalid(
                            "a waypoint is [x, y] or [x, y, z]".to_string(),
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                // A path of [x, y] points keeps the model's elevation.
                let start_z = board.piece(self.id(model)?)?.z;
                let waypoints: Vec<Waypoint> = waypoints
                    .into_iter()
                    .zip(path)
                    .map(|(w, p)| {
                        if p.len() == 2 {
                            Waypoint { z: start_z, ..w }
                        } else {
                            w
                        }
                    })
                    .collect();
                let kind = match kind {
                    MoveKindSpec::Walk => MoveKind::Walk,
                    MoveKindSpec::Charge => MoveKind::Charge,
                    MoveKindSpec::Toward(p) => MoveKind::Toward {
                        x: milli(p[0]),
                        y: milli(p[1]),
                    },
                    MoveKindSpec::Away(p) => MoveKind::Away {
                        x: milli(p[0]),
                        y: milli(p[1]),
                    },
                };
                match movement::validate_move(board, self.id(model)?, &waypoints, kind, *sp) {
                    Err(error) => (move_error_code(&error) != expect).then(|| {
                        format!(
                            "move: expected {expect}, got {} ({error})",
                            move_error_code(&error)
                        )
                    }),
                    Ok(outcome) if expect != "ok" => Some(format!(
                        "move: expected {expect}, but it is legal ({outcome:?})"
                    )),
                    Ok(outcome) => cost
                        .and_then(|c| compare_f("cost", c, outcome.cost))
                        .or_else(|| {
                            hazards
                                .as_ref()
                                .and_then(|h| compare_names("hazards", h, &outcome.hazards))
                        })
                        .or_else(|| {
                            fall_damage.and_then(|d| {
                                let got = outcome.fall.as_ref().map_or(0, |f| f.damage);
                                (d != got).then(|| format!("fall damage: expected {d}, got {got}"))
                            })
                        })
                        .or_else(|| {
                            falls_on_the_way.and_then(|n| {
                                let got = outcome.falls_on_the_way.len();
                                (n != got)
                                    .then(|| format!("falls on the way: expected {n}, got {got}"))
                            })
                        })
                        .or_else(|| {
                            left_engagement.as_ref().and_then(|l| {
                                compare_names(
                                    "left engagement",
                                    l,
                                    &self.names(&outcome.left_engagement),
                                )
                            })
                        }),
                }
            }
            other => return Err(misrouted(other, "a Walk, Charge or push along a path")),
        })
    }

    /// Checks of falling, jumping and scaling.
    fn climb_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        let body = |name: &str| self.body_of(board, name);
        Ok(match check {
            Check::Fall {
                model,
                damage,
                to,
                displaced,
                min_choices,
            } => {
                let fall = movement::fall(board, &body(model)?);
                match fall {
                    Err(e) => Some(format!("fall: {e}")),
                    Ok(fall) => (fall.damage != *damage)
                        .then(|| format!("fall damage: expected {damage}, got {}", fall.damage))
                        .or_else(|| compare_f("landing elevation", *to, fall.to))
                        .or_else(|| {
                            displaced.and_then(|d| {
                                ((d - fall.displaced).abs() > 0.011).then(|| {
                                    format!("displaced: expected {d}, got {:.3}", fall.displaced)
                                })
                            })
                        })
                        .or_else(|| {
                            min_choices.and_then(|n| {
                                (fall.choices.len() < n).then(|| {
                                    format!(
                                        "choices: expected at least {n}, got {:?}",
                                        fall.choices
                                    )
                                })
                            })
                        }),
                }
            }
            Check::Jump {
                model,
                to,
                remaining,
                expect,
                z,
            } => outcome_check(
                "jump",
                expect,
                movement::jump(board, self.id(model)?, point(*to), *remaining),
                |w| z.and_then(|z| compare_f("landing elevation", z, crate::table::inches(w.z))),
            ),
            Check::Scale {
                model,
                terrain,
                down,
                expect,
                z,
                end,
            } => outcome_check(
                "scale",
                expect,
                if *down {
                    movement::scale_down(board, self.id(model)?, self.id(terrain)?)
                } else {
                    movement::scale_up(board, self.id(model)?, self.id(terrain)?)
                },
                |w| {
                    z.and_then(|z| compare_f("elevation", z, crate::table::inches(w.z)))
                        .or_else(|| end.and_then(|end| compare_end("scale", end, w)))
                },
            ),
            other => return Err(misrouted(other, "falling, jumping and scaling")),
        })
    }

    /// Checks of placing and pushing by effects.
    fn place_check(
        &self,
        board: &Board,
        check: &Check,
    ) -> Result<Option<String>, TableScenarioError> {
        let body = |name: &str| self.body_of(board, name);
        Ok(match check {
            Check::Place {
                model,
                to,
                range,
                completely,
                expect,
                hazards,
            } => outcome_check(
                "place",
                expect,
                movement::place(board, self.id(model)?, point(*to), *range, *completely),
                |outcome| {
                    hazards
                        .as_ref()
                        .and_then(|h| compare_names("hazards", h, &outcome.hazards))
                },
            ),
            Check::PushAround {
                model,
                toward,
                inches,
                away,
                distance_after,
                end_x_at_least,
            } => {
                let path =
                    movement::push_around(board, self.id(model)?, point(*toward), *inches, *away)
                        .map_err(|e| TableScenarioError::Invalid(e.to_string()))?;
                let start = body(model)?.center;
                let end = path.last().map_or(start, |w| Point { x: w.x, y: w.y }.v2());
                let reference = V2::new(toward[0], toward[1]);
                let apart = end.dist(reference);
                let travelled: f64 = std::iter::once(start)
                    .chain(path.iter().map(|w| Point { x: w.x, y: w.y }.v2()))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .map(|w| w[0].dist(w[1]))
                    .sum();
                let wrong_way = std::iter::once(start)
                    .chain(path.iter().map(|w| Point { x: w.x, y: w.y }.v2()))
                    .collect::<Vec<_>>()
                    .windows(2)
                    .any(|w| {
                        let (before, after) = (w[0].dist(reference), w[1].dist(reference));
                        if *away {
                            after < before - 2.0 * TOUCH
                        } else {
                            after > before + 2.0 * TOUCH
                        }
                    });
                if wrong_way {
                    Some("push around: a step moved the reference points the wrong way".to_string())
                } else if travelled > inches + 2.0 * TOUCH {
                    Some(format!(
                        "push around: travelled {travelled:.3}\" of {inches}\""
                    ))
                } else if (!away && apart > distance_after + 2.0 * TOUCH)
                    || (*away && apart < distance_after - 2.0 * TOUCH)
                {
                    Some(format!(
                        "push around: ended {apart:.3}\" from the point, expected {distance_after}\""
                    ))
                } else {
                    end_x_at_least.and_then(|x| {
                        (end.x < x).then(|| {
                            format!(
                                "push around: ended at x = {:.3}, expected at least {x}",
                                end.x
                            )
                        })
                    })
                }
            }
            Check::Push {
                model,
                toward,
                inches,
                away,
                end,
            } => {
                let w =
                    movement::push_directly(board, self.id(model)?, point(*toward), *inches, *away)
                        .map_err(|e| TableScenarioError::Invalid(e.to_string()))?;
                compare_end("push", *end, &w)
            }
            other => return Err(misrouted(other, "placing and pushing by effects")),
        })
    }
}

/// A check handed to the runner of another kind (`run_check` dispatches
/// each kind to its own).
fn misrouted(check: &Check, kind: &str) -> TableScenarioError {
    TableScenarioError::Invalid(format!(
        "{} is not among the checks of {kind}",
        check_label(check)
    ))
}

fn compare_f(what: &str, expected: f64, actual: f64) -> Option<String> {
    ((expected - actual).abs() > 2.0 * TOUCH)
        .then(|| format!("{what}: expected {expected}, got {actual:.4}"))
}

fn compare_b(what: &str, expected: bool, actual: bool) -> Option<String> {
    (expected != actual).then(|| format!("{what}: expected {expected}, got {actual}"))
}

/// Where a base's centre ended against where the check expects it, in
/// inches, to within the rounding of the storage grid.
fn compare_end(what: &str, end: [f64; 2], w: &movement::Waypoint) -> Option<String> {
    let got = Point { x: w.x, y: w.y }.v2();
    (got.dist(V2::new(end[0], end[1])) > 2.0 * TOUCH).then(|| {
        format!(
            "{what} end: expected {end:?}, got ({:.3}, {:.3})",
            got.x, got.y
        )
    })
}

/// Compares names in any order (`actual` comes sorted).
fn compare_names(what: &str, expected: &[String], actual: &[String]) -> Option<String> {
    let mut expected = expected.to_vec();
    expected.sort();
    (expected != actual).then(|| format!("{what}: expected {expected:?}, got {actual:?}"))
}

fn outcome_check<T: std::fmt::Debug>(
    what: &str,
    expect: &str,
    result: Result<T, MoveError>,
    then: impl FnOnce(&T) -> Option<String>,
) -> Option<String> {
    match result {
        Err(error) => (move_error_code(&error) != expect).then(|| {
            format!(
                "{what}: expected {expect}, got {} ({error})",
                move_error_code(&error)
            )
        }),
        Ok(outcome) if expect != "ok" => Some(format!(
            "{what}: expected {expect}, but it is legal ({outcome:?})"
        )),
        Ok(outcome) => then(&outcome),
    }
}

pub(super) fn check_label(check: &Check) -> &'static str {
    match check {
        Check::Distance { .. } => "distance",
        Check::Within { .. } => "within",
        Check::CompletelyWithin { .. } => "completely_within",
        Check::BaseContact { .. } => "base_contact",
        Check::Los { .. } => "los",
        Check::Cover { .. } => "cover",
        Check::Concealment { .. } => "concealment",
        Check::Supported { .. } => "supported",
        Check::EffectiveSize { .. } => "effective_size",
        Check::MeleeReaches { .. } => "melee_reaches",
        Check::Engaged { .. } => "engaged",
        Check::Pulse { .. } => "pulse",
        Check::AreaBetween { .. } => "area_between",
        Check::Move { .. } => "move",
        Check::Fall { .. } => "fall",
        Check::Jump { .. } => "jump",
        Check::Scale { .. } => "scale",
        Check::Place { .. } => "place",
        Check::Push { .. } => "push",
        Check::PushAround { .. } => "push_around",
        Check::FriendlyEdges { .. } => "friendly_edges",
        Check::InHalf { .. } => "in_half",
    }
}
