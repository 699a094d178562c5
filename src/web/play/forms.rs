//! The decision the game waits for, as forms: one per legal choice, each
//! of a kind `command::command_from_form` reads back. Without scripts each
//! is a button or a small form; the page's script reads the `data-*`
//! these carry (which model moves, how far, what it must touch) to let
//! the player choose on the table instead.

use soulstone_engine::fate::Card;
use soulstone_engine::model::ModelId;
use soulstone_engine::pending::Choice;
use soulstone_engine::rules::GeneralReach;
use soulstone_engine::{GameState, PlayerCommand, Seat, Viewer};

use super::names::Names;
use super::words::Words;

/// The ways a choice is made on the page: each form carries its kind in
/// its `kind` field, `forms_for` writes it and `command_from_form` reads the
/// form back by it (the page's script and template name the same codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum FormKind {
    /// A whole command, sent as it was offered.
    Command,
    /// Words of the player's own that cut their deck.
    Entropy,
    DiscardAny,
    DrawFromDiscard,
    DiscardCards,
    SplitCrew,
    Deploy,
    /// A point a model (or a marker it makes) is placed at.
    Place,
    DropBlast,
    Move,
    Summon,
    Walk,
    Charge,
    PlantExplosives,
    SchemeMarker,
}

/// One form of the decision the game waits for.
pub struct ChoiceForm {
    /// How `command_from_form` reads it.
    pub kind: FormKind,
    pub label: String,
    /// For `command`: the command as JSON.
    pub command: String,
    /// Cards to tick (code, name) and how many must be (0: any number).
    pub cards: Vec<(String, String)>,
    pub count: u8,
    /// Models to pick from (id, name).
    pub models: Vec<(u16, String)>,
    /// Models to summon, by name.
    pub summonable: Vec<String>,
    /// The model on the table a command names (the one it activates or
    /// targets): clicking it on the board picks out this choice.
    pub piece: Option<u16>,
    /// For a point or a path: the model that moves or is placed, how far
    /// it may go, and the model it must end touching.
    pub mover: Option<u16>,
    pub inches: Option<u8>,
    pub touching: Option<u16>,
    /// A few words more: what cheating this card would give.
    pub note: String,
    /// Its keyboard shortcut (1 to 9), for the first buttons.
    pub shortcut: Option<u8>,
}

impl ChoiceForm {
    fn command(label: String, command: String) -> Self {
        Self {
            kind: FormKind::Command,
            label,
            command,
            cards: Vec::new(),
            count: 0,
            models: Vec::new(),
            summonable: Vec::new(),
            piece: None,
            mover: None,
            inches: None,
            touching: None,
            note: String::new(),
            shortcut: None,
        }
    }

    fn parts(kind: FormKind, label: String) -> Self {
        Self {
            kind,
            ..Self::command(label, String::new())
        }
    }

    /// Its kind's code, as the page and its script name it.
    pub fn code(&self) -> &'static str {
        self.kind.into()
    }

    /// Whether the player gives a point (or a path) on the table.
    pub fn takes_a_point(&self) -> bool {
        match self.kind {
            FormKind::Deploy
            | FormKind::Walk
            | FormKind::Charge
            | FormKind::SchemeMarker
            | FormKind::Summon
            | FormKind::Place
            | FormKind::DropBlast
            | FormKind::Move
            | FormKind::PlantExplosives => true,
            FormKind::Command
            | FormKind::Entropy
            | FormKind::DiscardAny
            | FormKind::DrawFromDiscard
            | FormKind::DiscardCards
            | FormKind::SplitCrew => false,
        }
    }

    /// Whether the player may give several waypoints.
    pub fn takes_a_path(&self) -> bool {
        matches!(self.kind, FormKind::Walk | FormKind::Move)
    }
}

/// The model a command names on the table (the one it activates or
/// targets).
fn piece_of(command: &PlayerCommand) -> Option<u16> {
    match command {
        PlayerCommand::Activate { model }
        | PlayerCommand::ChainActivate { model }
        | PlayerCommand::AssumeLeadership { model }
        | PlayerCommand::ChooseModel { model }
        | PlayerCommand::PlaceExplosives { model }
        | PlayerCommand::TakeAction {
            target: Some(model),
            ..
        }
        | PlayerCommand::DeclareGeneratedAction {
            target: Some(model),
        } => Some(model.0),
        _ => None,
    }
}

fn model_names(names: &Names, state: &GameState, ids: &[ModelId]) -> Vec<(u16, String)> {
    ids.iter()
        .filter(|id| state.model(**id).is_some())
        .map(|id| (id.0, names.labelled(*id)))
        .collect()
}

/// The forms for the decision `seat` faces now.
pub fn forms_for(
    state: &GameState,
    seat: Seat,
    names: &Names,
    choices: &[Choice],
) -> Vec<ChoiceForm> {
    let viewer = Viewer::Player(seat);
    let words = Words::new(state, viewer, names);
    let cards = |from: &[Card]| {
        from.iter()
            .map(|c| (c.to_string(), c.long_name()))
            .collect::<Vec<_>>()
    };
    let name = |id: ModelId| names.name(id);
    let mut forms: Vec<ChoiceForm> = choices
        .iter()
        .map(|choice| match choice {
            Choice::Command { command } => ChoiceForm {
                piece: piece_of(command),
                note: match command {
                    PlayerCommand::Cheat { card } => {
                        super::duel_panel::cheat_words(state, viewer, *card).unwrap_or_default()
                    }
                    _ => String::new(),
                },
                ..ChoiceForm::command(
                    words.command(command),
                    serde_json::to_string(command).unwrap_or_default(),
                )
            },
            Choice::Entropy => ChoiceForm::parts(
                FormKind::Entropy,
                "Cut your deck: type a few words or numbers of your own".into(),
            ),
            Choice::DiscardAny { from } => ChoiceForm {
                cards: cards(from),
                ..ChoiceForm::parts(FormKind::DiscardAny, "Discard these (any, or none)".into())
            },
            Choice::DrawFromDiscard { up_to, from } => ChoiceForm {
                cards: cards(from),
                ..ChoiceForm::parts(
                    FormKind::DrawFromDiscard,
                    format!("Draw up to {up_to} of these from your discard pile (or none)"),
                )
            },
            Choice::DiscardCards { count, from } => ChoiceForm {
                cards: cards(from),
                count: *count,
                ..ChoiceForm::parts(FormKind::DiscardCards, format!("Discard exactly {count}"))
            },
            Choice::SplitCrew { models } => ChoiceForm {
                models: model_names(names, state, models),
                ..ChoiceForm::parts(
                    FormKind::SplitCrew,
                    "Tick the models of your first group; the rest are the second".into(),
                )
            },
            Choice::Deploy { models, .. } => ChoiceForm {
                models: model_names(names, state, models),
                ..ChoiceForm::parts(
                    FormKind::Deploy,
                    "Deploy a model completely within your zone".into(),
                )
            },
            Choice::Walk { model, inches } => ChoiceForm {
                mover: Some(model.0),
                inches: Some(*inches),
                ..ChoiceForm::parts(
                    FormKind::Walk,
                    format!("Walk {} up to {inches}\"", name(*model)),
                )
            },
            Choice::Move { model, inches } => ChoiceForm {
                piece: Some(model.0),
                mover: Some(model.0),
                inches: Some(*inches),
                ..ChoiceForm::parts(
                    FormKind::Move,
                    format!("Move {} up to {inches}\"", name(*model)),
                )
            },
            Choice::Charge { model, inches } => ChoiceForm {
                mover: Some(model.0),
                inches: Some(*inches),
                ..ChoiceForm::parts(
                    FormKind::Charge,
                    format!("Charge with {} up to {inches}\" in a straight line", name(*model)),
                )
            },
            // 4th edition: within 1"; 3rd edition: in base contact (the
            // table snaps a click near the model to its base).
            Choice::MakeSchemeMarker { model }
                if state.edition.rules().actions.general_reach == GeneralReach::BaseContact =>
            {
                ChoiceForm {
                mover: Some(model.0),
                touching: Some(model.0),
                ..ChoiceForm::parts(
                    FormKind::SchemeMarker,
                    format!("Interact: make a scheme marker in base contact with {}", name(*model)),
                )
            }
            }
            Choice::MakeSchemeMarker { model } => ChoiceForm {
                mover: Some(model.0),
                inches: Some(1),
                ..ChoiceForm::parts(
                    FormKind::SchemeMarker,
                    format!("Interact: make a scheme marker within 1\" of {}", name(*model)),
                )
            },
            Choice::PlantExplosives { model } => ChoiceForm {
                mover: Some(model.0),
                touching: Some(model.0),
                ..ChoiceForm::parts(
                    FormKind::PlantExplosives,
                    format!(
                        "Interact: spend one of {}'s explosives tokens for a strategy marker in base contact",
                        name(*model)
                    ),
                )
            },
            Choice::Place {
                model,
                touching: Some(onto),
                ..
            } => ChoiceForm {
                piece: Some(model.0),
                mover: Some(model.0),
                touching: Some(onto.0),
                ..ChoiceForm::parts(
                    FormKind::Place,
                    format!(
                        "Place {} in base contact with {}",
                        name(*model),
                        names.labelled(*onto)
                    ),
                )
            },
            Choice::Place { model, inches, .. } => ChoiceForm {
                piece: Some(model.0),
                mover: Some(model.0),
                inches: Some(*inches),
                ..ChoiceForm::parts(
                    FormKind::Place,
                    format!("Place {} within {inches}\" of where it stands", name(*model)),
                )
            },
            Choice::DropBlast { target, left } => ChoiceForm {
                touching: Some(target.0),
                ..ChoiceForm::parts(
                    FormKind::DropBlast,
                    format!(
                        "Drop a 50 mm blast marker ({left} to drop) touching {} or an earlier one",
                        names.labelled(*target)
                    ),
                )
            },
            Choice::Replace { model, with } => ChoiceForm {
                piece: Some(model.0),
                touching: Some(model.0),
                ..ChoiceForm::parts(
                    FormKind::Place,
                    format!("{with} replaces {}: place it touching that model", name(*model)),
                )
            },
            Choice::Summon { summoner, models } => ChoiceForm {
                summonable: models.clone(),
                piece: Some(summoner.0),
                touching: Some(summoner.0),
                ..ChoiceForm::parts(
                    FormKind::Summon,
                    format!(
                        "Summon a model touching {} and in its sight",
                        name(*summoner)
                    ),
                )
            },
        })
        .collect();
    let mut key = 0u8;
    for form in forms.iter_mut().filter(|f| f.kind == FormKind::Command) {
        key += 1;
        if key <= 9 {
            form.shortcut = Some(key);
        }
    }
    forms
}
