//! Schemes: choosing and selecting them, revealing, scoring and abandoning
//! them, and the claims the players make.

use super::*;

/// `seat`'s scheme called `name` (any case): one it holds in secret, with
/// its choice, or one it revealed.
fn own_scheme(choices: &crate::encounter::Choices, seat: Seat, name: &str) -> Option<HeldScheme> {
    let i = seat.index();
    choices.schemes[i]
        .iter()
        .filter_map(|h| h.value.as_ref())
        .find(|h| h.name.eq_ignore_ascii_case(name))
        .cloned()
        .or_else(|| {
            choices.revealed[i]
                .iter()
                .find(|r| r.eq_ignore_ascii_case(name))
                .map(|r| {
                    let chosen = choices
                        .revealed_choices
                        .iter()
                        .find(|(s, held)| *s == seat && held.name.eq_ignore_ascii_case(r))
                        .map(|(_, held)| held);
                    HeldScheme {
                        name: r.clone(),
                        target: chosen.and_then(|held| held.target),
                        second_target: chosen.and_then(|held| held.second_target),
                    }
                })
        })
}

/// 3rd edition: the schemes `seat` may score 1 VP for now, in the end
/// phase of a scoring turn: those whose requirement the engine finds met,
/// and those it cannot check (claimed). Why each other may not:
/// [`scheme_claim_refusal`].
pub(crate) fn claimable_schemes(state: &GameState, seat: Seat) -> Vec<String> {
    own_scheme_names(state, seat)
        .into_iter()
        .filter(|name| scheme_claim_refusal(state, seat, name).is_none())
        .collect()
}

/// 3rd edition: the sets of scheme markers `seat` could remove to score
/// its scheme `name` now, when more than one set would do (with one, the
/// engine's own pick leaves nothing to choose). Each set is as large as
/// the engine's pick and meets the requirement on its own.
pub(crate) fn scheme_marker_sets(state: &GameState, seat: Seat, name: &str) -> Vec<Vec<ObjectId>> {
    let Some(held) = state
        .encounter
        .as_deref()
        .and_then(|e| own_scheme(&e.choices, seat, name))
    else {
        return Vec::new();
    };
    let Ok(ScoredBy::Engine { spent }) = scheme_scoring_now(state, seat, &held, &[]) else {
        return Vec::new();
    };
    if spent.is_empty() {
        return Vec::new();
    }
    let mine: Vec<ObjectId> = state.scheme_markers_of(seat).map(|k| k.id).collect();
    let mut sets = Vec::new();
    let mut picked = Vec::with_capacity(spent.len());
    subsets(&mine, spent.len(), 0, &mut picked, &mut |set| {
        if matches!(
            scheme_scoring_now(state, seat, &held, set),
            Ok(ScoredBy::Engine { .. })
        ) {
            sets.push(set.to_vec());
        }
    });
    if sets.len() < 2 {
        sets.clear();
    }
    sets
}

/// Calls `each` with every `size`-element subset of `from[start..]` added
/// to `picked`, in order.
fn subsets(
    from: &[ObjectId],
    size: usize,
    start: usize,
    picked: &mut Vec<ObjectId>,
    each: &mut impl FnMut(&[ObjectId]),
) {
    if picked.len() == size {
        each(picked);
        return;
    }
    for i in start..from.len() {
        picked.push(from[i]);
        subsets(from, size, i + 1, picked, each);
        picked.pop();
    }
}

/// Whether `seat` holds a scheme that has not used up its VP for this
/// turn or game: read from public claims (a crew holds two), never from
/// whether its requirement is met.
fn may_be_asked_to_score(state: &GameState, seat: Seat) -> bool {
    own_scheme_names(state, seat)
        .iter()
        .any(|name| scheme_claim_refusal_public(state, seat, name).is_none())
}

fn own_scheme_names(state: &GameState, seat: Seat) -> Vec<String> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Vec::new();
    };
    let choices = &encounter.choices;
    choices.schemes[seat.index()]
        .iter()
        .filter_map(|h| h.value.as_ref())
        .map(|h| h.name.clone())
        .chain(choices.revealed[seat.index()].iter().cloned())
        .collect()
}

/// Whether the engine itself would score `seat`'s scheme `name` now (its
/// requirement checked and met), rather than take a claim for it.
pub(crate) fn scheme_checked_and_met(state: &GameState, seat: Seat, name: &str) -> bool {
    scheme_claim_refusal_public(state, seat, name).is_none()
        && state
            .encounter
            .as_deref()
            .and_then(|e| own_scheme(&e.choices, seat, name))
            .is_some_and(|held| {
                matches!(
                    scheme_scoring_now(state, seat, &held, &[]),
                    Ok(ScoredBy::Engine { .. })
                )
            })
}

/// How a 3rd edition scheme scores now.
enum ScoredBy {
    /// The engine found its requirement met: these scheme markers go.
    Engine { spent: Vec<crate::table::ObjectId> },
    /// The engine cannot check the requirement: the opponent answers.
    Claim,
}

/// Which of `held`'s requirements scores now, or why none does: before
/// the last turn its Reveal (once), on the last turn its End, or its
/// Reveal if it is still secret. A scheme the content does not describe
/// is claimed.
fn scheme_scoring_now(
    state: &GameState,
    seat: Seat,
    held: &HeldScheme,
    named: &[ObjectId],
) -> Result<ScoredBy, String> {
    let Some(encounter) = state.encounter.as_deref() else {
        return Err("there is no encounter".into());
    };
    let Some(def) = encounter.setup.schemes.scheme(&held.name) else {
        return if named.is_empty() {
            Ok(ScoredBy::Claim)
        } else {
            Err(format!(
                "{}: the engine removes no markers for a scheme it cannot check",
                held.name
            ))
        };
    };
    if !named.is_empty() && !def.spends_markers {
        return Err(format!("{} removes no scheme markers", def.name));
    }
    // The markers named must be the crew's own scheme markers, each once.
    let distinct = named
        .iter()
        .enumerate()
        .all(|(i, id)| !named[..i].contains(id));
    let all_friendly = named
        .iter()
        .all(|id| state.scheme_markers_of(seat).any(|k| k.id == *id));
    if !distinct || !all_friendly {
        return Err("name each of your own scheme markers at most once".into());
    }
    let among = (!named.is_empty()).then_some(named);
    let last = encounter.turn >= state.edition.rules().encounter.turns;
    // A disputed claim revealed the scheme for nothing: its Reveal VP is
    // still to score.
    let revealed = encounter
        .choices
        .scores_of(seat, &def.name)
        .any(|score| score.vp > 0);
    let mut requirements: Vec<&[crate::encounter::objectives::SchemeCondition]> = Vec::new();
    if last {
        requirements.extend([def.end.as_slice(), def.end_otherwise.as_slice()]);
    }
    if !revealed {
        requirements.push(&def.reveal);
    }
    let mut claimed = false;
    for conditions in requirements.into_iter().filter(|c| !c.is_empty()) {
        if conditions.contains(&crate::encounter::objectives::SchemeCondition::Claimed) {
            claimed = true;
            continue;
        }
        let met = scoring::requirement_met(state, encounter, seat, held, conditions, among);
        if let Some(markers) = met {
            // Markers named beyond those the requirement counts would go
            // for nothing: the requirement must take them all.
            if markers.len() < named.len() {
                continue;
            }
            let spent = if def.spends_markers {
                markers
            } else {
                Vec::new()
            };
            return Ok(ScoredBy::Engine { spent });
        }
    }
    if claimed && named.is_empty() {
        return Ok(ScoredBy::Claim);
    }
    let name = &def.name;
    if !named.is_empty() {
        return Err(format!(
            "{name}: the scheme markers named do not meet its requirement on their own"
        ));
    }
    Err(match (last, revealed) {
        (false, _) => format!("{name}: its Reveal requirement is not met now"),
        (true, true) => format!("{name}: its End requirement is not met"),
        (true, false) => format!("{name}: neither its Reveal nor its End requirement is met"),
    })
}

/// Why `seat` may not score its scheme `name` now, if it may not: the
/// limits below ([`scheme_claim_refusal_public`]), or a requirement the
/// engine finds unmet.
pub(crate) fn scheme_claim_refusal(state: &GameState, seat: Seat, name: &str) -> Option<String> {
    if let Some(why) = scheme_claim_refusal_public(state, seat, name) {
        return Some(why);
    }
    let held = own_scheme(&state.encounter.as_deref()?.choices, seat, name)?;
    scheme_scoring_now(state, seat, &held, &[]).err()
}

/// Why `seat` may not claim 1 VP for its scheme `name` now, as public
/// facts tell. A scheme scores at most once a turn and 2 VP a game: its
/// reveal VP on any turn from the second, its end-of-game VP on the last.
/// A disputed claim gains nothing and does not use up the scheme: it may
/// be claimed again on a later turn.
fn scheme_claim_refusal_public(state: &GameState, seat: Seat, name: &str) -> Option<String> {
    let encounter = state.encounter.as_deref()?;
    let rules = &state.edition.rules().encounter;
    if rules.schemes != SchemeRule::TwoFromThePool {
        return Some("schemes are not claimed one by one in this edition".into());
    }
    if encounter.turn < rules.first_scoring_turn {
        return Some(format!("nothing scores on turn {}", encounter.turn));
    }
    let choices = &encounter.choices;
    if own_scheme(choices, seat, name).is_none() {
        return Some(format!("{name} is not one of your schemes"));
    }
    let (mut vp, mut this_turn) = (0u8, false);
    for score in choices.scores_of(seat, name) {
        vp = vp.saturating_add(score.vp);
        this_turn |= score.turn == encounter.turn;
    }
    if this_turn {
        return Some(format!("{name} has been claimed this turn: once a turn"));
    }
    if vp >= 2 {
        return Some(format!("{name} has scored its 2 VP"));
    }
    if vp >= 1 && encounter.turn < rules.turns {
        return Some(format!(
            "{name} has scored when revealed: its second VP is scored at the end of the game (turn {})",
            rules.turns
        ));
    }
    None
}

/// The schemes `seat` may select now: the Next Available Schemes of the
/// one it revealed or abandoned that the content defines and it has not
/// revealed.
pub(crate) fn selectable(encounter: &Encounter, seat: Seat) -> Vec<String> {
    let Some(from) = encounter.choices.select_from[seat.index()]
        .as_deref()
        .and_then(|name| encounter.setup.schemes.scheme(name))
    else {
        return Vec::new();
    };
    from.next
        .iter()
        .filter_map(|name| encounter.setup.schemes.scheme(name))
        .filter(|def| !encounter.choices.has_revealed(seat, &def.name))
        .map(|def| def.name.clone())
        .collect()
}

impl Sim<'_> {
    /// End phase steps C and D, initiative first in each: the next crew
    /// after `after` that holds a scheme decides; then step E. In 3rd
    /// edition, the crews' scheme claims instead.
    pub(super) fn next_scheme_step(&mut self, after: Option<Step>) -> Result<(), RuleError> {
        let first = self.encounter()?.initiative;
        if self.encounter_rules().schemes == SchemeRule::TwoFromThePool {
            return match after {
                // The crew kept what is left: the next crew's turn.
                Some(Step::RevealScheme { seat }) => self.scheme_claims_from(seat, false),
                _ => self.scheme_claims_from(first, true),
            };
        }
        let order = [
            Step::RevealScheme { seat: first },
            Step::RevealScheme {
                seat: first.other(),
            },
            Step::AbandonScheme { seat: first },
            Step::AbandonScheme {
                seat: first.other(),
            },
        ];
        let start = after
            .and_then(|step| order.iter().position(|s| *s == step))
            .map_or(0, |i| i + 1);
        let last_turn = self.last_turn();
        for step in &order[start..] {
            let (Step::RevealScheme { seat } | Step::AbandonScheme { seat }) = *step else {
                continue;
            };
            // Abandoning makes room for a new scheme; on the last turn
            // there is none to make room for.
            if last_turn && matches!(step, Step::AbandonScheme { .. }) {
                continue;
            }
            if !self.encounter()?.choices.schemes[seat.index()].is_empty() {
                return self.step_to(*step);
            }
        }
        self.step_to(Step::SelectSchemes)
    }

    /// 3rd edition scoring of schemes, initiative first: `seat` (or the crew
    /// after it) is asked while it has a scheme it may still score this
    /// turn; then the turn ends.
    pub(super) fn scheme_claims_from(
        &mut self,
        seat: Seat,
        including: bool,
    ) -> Result<(), RuleError> {
        // Asked while it has a scheme not used up, as public facts tell,
        // whether or not it can score now: being asked gives nothing away.
        for seat in &self.initiative_order_from(seat, including)? {
            if may_be_asked_to_score(&self.state, *seat) {
                return self.step_to(Step::RevealScheme { seat: *seat });
            }
        }
        self.step_to(Step::SelectSchemes)
    }

    /// A 3rd edition crew, asked in the end phase, claims 1 VP for one of
    /// its schemes (revealing it if it is still secret), or is done.
    pub(super) fn third_edition_scheme_claim(
        &mut self,
        seat: Seat,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        match command {
            PlayerCommand::KeepScheme => {
                self.emit(Event::SchemeKept { seat })?;
                self.scheme_claims_from(seat, false)
            }
            PlayerCommand::ClaimScheme {
                vp,
                scheme: Some(name),
                markers,
            } => {
                if *vp != 1 {
                    return refuse("a scheme scores 1 VP at a time");
                }
                if let Some(why) = scheme_claim_refusal_public(&self.state, seat, name) {
                    return refuse(why);
                }
                let Some(held) = own_scheme(&self.encounter()?.choices, seat, name) else {
                    return refuse(format!("{name} is not one of your schemes"));
                };
                match scheme_scoring_now(&self.state, seat, &held, markers) {
                    Err(why) => refuse(why),
                    Ok(ScoredBy::Claim) => {
                        self.emit(Event::VpClaimed {
                            seat,
                            objective: ClaimedObjective::Scheme { scheme: held },
                            vp: 1,
                        })?;
                        self.step_to(Step::AnswerClaim { seat: seat.other() })
                    }
                    Ok(ScoredBy::Engine { spent }) => {
                        for id in spent {
                            self.emit(Event::MarkerRemoved { id })?;
                        }
                        let amount = self.vp_left(seat, true)?.min(1);
                        if self.encounter()?.choices.has_revealed(seat, &held.name) {
                            self.emit(Event::SchemeScored {
                                seat,
                                scheme: held.name,
                                amount,
                            })?;
                        } else {
                            self.emit(Event::SchemeRevealed {
                                seat,
                                scheme: held,
                                amount,
                            })?;
                        }
                        self.scheme_claims_from(seat, true)
                    }
                }
            }
            _ => refuse("claim 1 VP for one of your schemes, or keep them for now"),
        }
    }

    /// Activation phase step C-4 after `after` (or from the start): the
    /// next crew, initiative first, that might hold a scheme revealed at
    /// the end of an activation (as public facts tell) decides whether to
    /// reveal it; then the activation phase goes on.
    pub(in crate::procedure) fn reveal_after_activation(
        &mut self,
        after: Option<Seat>,
    ) -> Result<(), RuleError> {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return Ok(());
        };
        let first = encounter.initiative;
        let order = [first, first.other()];
        let start = after
            .and_then(|seat| order.iter().position(|s| *s == seat))
            .map_or(0, |i| i + 1);
        let asked = order[start..]
            .iter()
            .copied()
            .find(|seat| encounter.may_reveal_after_activation(*seat));
        match (asked, after) {
            (Some(seat), _) => self.step_to(Step::RevealAfterActivation { seat }),
            (None, Some(_)) => self.step_to(Step::Activations),
            (None, None) => Ok(()),
        }
    }

    /// Which crews select a new scheme now: those that revealed or
    /// abandoned one whose Next Available Schemes the content defines.
    pub(crate) fn must_select(&self) -> [bool; 2] {
        let Some(encounter) = self.state.encounter.as_deref() else {
            return [false; 2];
        };
        // After the last turn's reveals the game ends (step F): a new
        // scheme could score nothing, so none is selected.
        if self.last_turn() {
            return [false; 2];
        }
        Seat::BOTH.map(|seat| !selectable(encounter, seat).is_empty())
    }

    pub(super) fn select_scheme(
        &mut self,
        seat: Seat,
        scheme: &str,
        target: Option<ModelId>,
        second_target: Option<ModelId>,
    ) -> Result<(), RuleError> {
        let encounter = self.encounter()?;
        let Some(def) = encounter.setup.schemes.scheme(scheme) else {
            return refuse(format!("there is no scheme {scheme}"));
        };
        if encounter.choices.has_revealed(seat, &def.name) {
            return refuse(format!("you have already revealed {}", def.name));
        }
        let name = def.name.clone();
        let model = |id: Option<ModelId>| id.and_then(|id| self.state.model(id));
        let (target, second_target) = match def.choice {
            None if target.is_some() || second_target.is_some() => {
                return refuse(format!("{name} asks for no chosen model"));
            }
            None => (None, None),
            Some(choice) => {
                let first_ok = model(target).is_some_and(|m| encounter.may_choose(seat, choice, m));
                let second_ok = match (choice.chooses_two(), model(target), model(second_target)) {
                    (false, _, _) => second_target.is_none(),
                    (true, Some(first), Some(second)) => {
                        encounter.may_choose_second(seat, choice, first, second)
                    }
                    (true, _, _) => false,
                };
                if !first_ok || !second_ok {
                    return refuse(format!("{name}: choose {}", choice.label()));
                }
                (target, second_target)
            }
        };
        self.emit(Event::SchemeSelected {
            seat,
            scheme: Hidden::new(
                seat,
                HeldScheme {
                    name,
                    target,
                    second_target,
                },
            ),
        })
    }

    pub(super) fn scheme_decision(
        &mut self,
        seat: Seat,
        step: Step,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let timing = match step {
            Step::RevealAfterActivation { .. } => RevealTiming::EndOfActivation,
            _ => RevealTiming::EndOfTurn,
        };
        let revealing = matches!(
            step,
            Step::RevealScheme { .. } | Step::RevealAfterActivation { .. }
        );
        let encounter = self.encounter()?;
        let Some(held) = encounter.choices.held(seat).and_then(|h| h.value.clone()) else {
            return refuse("you hold no scheme");
        };
        let held_timing = encounter
            .setup
            .schemes
            .scheme(&held.name)
            .map_or(RevealTiming::EndOfTurn, |def| def.timing);
        if revealing
            && !held_timing.allows(timing)
            && matches!(
                command,
                PlayerCommand::RevealScheme | PlayerCommand::ClaimScheme { .. }
            )
        {
            return refuse(format!(
                "{} is revealed {}, not {}",
                held.name,
                held_timing.label(),
                timing.label()
            ));
        }
        let claimed = encounter.holds_claimed_scheme(seat);
        match command {
            PlayerCommand::RevealScheme if revealing && claimed => {
                return refuse(format!(
                    "the engine cannot check {}: claim its VP instead",
                    held.name
                ));
            }
            PlayerCommand::ClaimScheme { .. } if revealing && !claimed => {
                return refuse(format!(
                    "the engine checks {}: reveal it instead of claiming",
                    held.name
                ));
            }
            PlayerCommand::ClaimScheme { markers, .. } if revealing && !markers.is_empty() => {
                return refuse(
                    "a claimed scheme removes no markers: the players remove what it spends",
                );
            }
            PlayerCommand::ClaimScheme { vp, scheme, .. } if revealing => {
                if scheme
                    .as_deref()
                    .is_some_and(|name| !name.eq_ignore_ascii_case(&held.name))
                {
                    return refuse(format!("you hold {}, not another scheme", held.name));
                }
                let Some(most) = scoring::reveal_value(&self.state, encounter, seat, &held) else {
                    return refuse(format!("{} cannot be revealed now", held.name));
                };
                if !(1..=most).contains(vp) {
                    return refuse(format!("claim 1 to {most} VP for {}", held.name));
                }
                self.emit(Event::VpClaimed {
                    seat,
                    objective: ClaimedObjective::Scheme { scheme: held },
                    vp: *vp,
                })?;
                // The opponent answers; the reveal round goes on after.
                return self.step_to(Step::AnswerClaim { seat: seat.other() });
            }
            PlayerCommand::RevealScheme if revealing => {
                let Some(value) = scoring::reveal_value(&self.state, encounter, seat, &held) else {
                    return refuse(format!("{} cannot be revealed now", held.name));
                };
                let amount = value.min(self.vp_left(seat, true)?);
                self.emit(Event::SchemeRevealed {
                    seat,
                    scheme: held,
                    amount,
                })?;
            }
            PlayerCommand::AbandonScheme if !revealing => {
                self.emit(Event::SchemeAbandoned { seat, scheme: held })?
            }
            PlayerCommand::KeepScheme => self.emit(Event::SchemeKept { seat })?,
            _ if revealing => return refuse("reveal your scheme, or keep it for now"),
            _ => return refuse("abandon your scheme, or keep it"),
        }
        match step {
            Step::RevealAfterActivation { .. } => self.reveal_after_activation(Some(seat)),
            _ => self.next_scheme_step(Some(step)),
        }
    }

    /// A command about schemes: choosing, selecting, revealing, abandoning.
    pub(super) fn scheme_command(
        &mut self,
        seat: Seat,
        encounter: &Encounter,
        command: &PlayerCommand,
    ) -> Result<(), RuleError> {
        let step = encounter.step;
        match (step, command) {
            (
                Step::ChooseSchemes,
                PlayerCommand::SelectScheme {
                    scheme,
                    target,
                    second_target,
                },
            ) => {
                if encounter.done[seat.index()] {
                    return refuse(match self.encounter_rules().schemes {
                        SchemeRule::OneHeld => "you have already chosen your scheme",
                        SchemeRule::TwoFromThePool => "you have already chosen your two schemes",
                    });
                }
                if encounter.choices.schemes[seat.index()]
                    .iter()
                    .filter_map(|h| h.value.as_ref())
                    .any(|h| h.name.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!("you have already chosen {scheme}: choose another"));
                }
                if !encounter
                    .setup
                    .scheme_pool
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!("{scheme} is not in this encounter's scheme pool"));
                }
                self.select_scheme(seat, scheme, *target, *second_target)
            }
            (
                Step::SelectSchemes,
                PlayerCommand::SelectScheme {
                    scheme,
                    target,
                    second_target,
                },
            ) => {
                if !self.must_select()[seat.index()] || encounter.done[seat.index()] {
                    return refuse("you do not select a scheme now");
                }
                if encounter.choices.has_revealed(seat, scheme) {
                    return refuse(format!("you have already revealed {scheme}"));
                }
                if !selectable(encounter, seat)
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(scheme))
                {
                    return refuse(format!(
                        "{scheme} is not among the Next Available Schemes you may select"
                    ));
                }
                self.select_scheme(seat, scheme, *target, *second_target)
            }
            (Step::RevealScheme { seat: deciding }, _)
                if self.encounter_rules().schemes == SchemeRule::TwoFromThePool =>
            {
                Self::require_seat(seat, deciding)?;
                self.third_edition_scheme_claim(seat, command)
            }
            (
                Step::RevealScheme { seat: deciding }
                | Step::RevealAfterActivation { seat: deciding }
                | Step::AbandonScheme { seat: deciding },
                _,
            ) => {
                Self::require_seat(seat, deciding)?;
                self.scheme_decision(seat, step, command)
            }
            _ => wrong_step(step),
        }
    }
}
