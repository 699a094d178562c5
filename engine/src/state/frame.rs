//! The stack of procedures in progress, innermost last, and what each
//! frame holds.

use super::*;

/// The stack of procedures in progress, innermost last. A state and its
/// copies share each frame until one of them writes it: a command usually
/// writes only the innermost, and a bot's probe copies the whole state.
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Frames(Vec<Arc<Frame>>);

impl Clone for Frames {
    fn clone(&self) -> Self {
        // Room for the procedures a command starts: a copy made exactly
        // as long would grow again at its first push.
        let mut frames = Vec::with_capacity(self.0.len() + 2);
        frames.extend(self.0.iter().cloned());
        Self(frames)
    }
}

impl Frames {
    pub(crate) fn of(frame: Frame) -> Self {
        Self(vec![Arc::new(frame)])
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn last(&self) -> Option<&Frame> {
        self.0.last().map(|f| &**f)
    }

    pub fn get(&self, index: usize) -> Option<&Frame> {
        self.0.get(index).map(|f| &**f)
    }

    /// Outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> + ExactSizeIterator {
        self.0.iter().map(|f| &**f)
    }

    pub(crate) fn push(&mut self, frame: Frame) {
        self.0.push(Arc::new(frame));
    }

    pub(crate) fn pop(&mut self) {
        self.0.pop();
    }

    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }

    /// The innermost frame, to write (copied if shared).
    pub(crate) fn last_mut(&mut self) -> Option<&mut Frame> {
        self.0.last_mut().map(Arc::make_mut)
    }

    /// The innermost frame `is` picks, to write (only it is copied).
    pub(crate) fn innermost_mut(&mut self, is: impl Fn(&Frame) -> bool) -> Option<&mut Frame> {
        let index = self.0.iter().rposition(|f| is(f))?;
        self.0.get_mut(index).map(Arc::make_mut)
    }

    /// Every frame `is` picks, to write (only they are copied).
    pub(crate) fn iter_mut_where(
        &mut self,
        is: impl Fn(&Frame) -> bool,
    ) -> impl Iterator<Item = &mut Frame> {
        self.0.iter_mut().filter(move |f| is(f)).map(Arc::make_mut)
    }
}

/// A procedure in progress. The state holds a stack of them, innermost
/// last: each starts inside the one below and hands back to it when it ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "frame", rename_all = "snake_case")]
pub enum Frame {
    /// Waiting for both players' entropy before the first shuffle.
    Contributions,
    Duel {
        /// Inline, not boxed: the state is copied for every command.
        duel: Duel,
    },
    Damage {
        progress: Box<DamageProgress>,
    },
    /// A model's action: its duel, the damage it deals and what follows
    /// happen inside it.
    Action {
        action: Box<ActionInProgress>,
    },
    /// A single flip outside a duel (a 3rd edition damage flip).
    Flip {
        flip: FlipInProgress,
    },
    /// A model's activation: the game flow's actions for it happen inside.
    Activation {
        model: ModelId,
        /// Hazardous terrain suffered this activation, by model and name:
        /// each piece at most once.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hazards: Vec<(ModelId, String)>,
    },
    /// A player must discard `count` cards of their choice (all they hold,
    /// if fewer).
    Discard {
        seat: Seat,
        count: u8,
        reason: DiscardReason,
    },
    /// Abilities that fired at once, waiting for a player to order them.
    Abilities {
        batch: Box<crate::ability::AbilityBatch>,
    },
    /// A player picks one of `options` for an effect (`then`).
    ChooseModel {
        seat: Seat,
        options: Vec<ModelId>,
        then: crate::ability::ModelChoice,
    },
    /// A player picks one of the markers `options` for an effect (`then`).
    ChooseMarker {
        seat: Seat,
        options: Vec<ObjectId>,
        then: crate::ability::MarkerChoice,
    },
    /// An effect's place: `seat` picks where `model` goes, within `inches`
    /// or, when `touching` is given, in base contact with that model.
    Place {
        seat: Seat,
        model: ModelId,
        inches: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        touching: Option<ModelId>,
    },
    /// 3rd edition blasts: `seat` drops `count` markers (those `dropped`
    /// so far), then the models they touch suffer `damage`.
    Blasts {
        seat: Seat,
        target: ModelId,
        count: u8,
        damage: u8,
        source: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        credit: Option<ModelId>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        dropped: Vec<Point>,
    },
    /// An execute effect's way out: `seat` discards a card or a soulstone
    /// for `model`, or lets it be killed.
    KillUnlessPaid {
        seat: Seat,
        model: ModelId,
    },
    /// `seat` may draw up to `up_to` cards of value 1 to `max_value`
    /// from its discard pile (Resupply).
    DrawFromDiscard {
        seat: Seat,
        up_to: u8,
        max_value: u8,
    },
    /// An effect's move: `seat` sends the path `model` moves along, up
    /// to `inches` (staying put is a path too).
    Move {
        seat: Seat,
        model: ModelId,
        inches: u8,
        /// A push: one straight line (3rd edition Disengage's).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        push: bool,
    },
    /// 3rd edition Disengage by `model`, inside its action: the strike an
    /// engaging enemy may make, the flip a successful one asks for, then
    /// the push.
    Disengage {
        model: ModelId,
        stage: DisengageStage,
    },
    /// A replace: `seat` picks where the model called `with` stands,
    /// touching `model`, which it replaces.
    Replace {
        seat: Seat,
        model: ModelId,
        with: String,
        /// The other models it replaces along with `model`.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        also: Vec<ModelId>,
    },
    /// A summoning action's success: `seat` picks which of `options` to
    /// summon and where, around `summoner`.
    Summon {
        seat: Seat,
        summoner: ModelId,
        options: Vec<String>,
    },
    /// A "this or that" choice for `model`, waiting for its controller.
    Either {
        seat: Seat,
        model: ModelId,
        options: [crate::ability::EitherOption; 2],
    },
}

/// Where a Disengage stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "stage", rename_all = "snake_case")]
pub enum DisengageStage {
    /// The enemy crew chooses a model engaging it to strike, or none.
    Strike,
    /// The strike succeeded: `seat` flips for the reduction once the
    /// strike has ended.
    Struck { seat: Seat, modifiers: i8 },
    /// The push, this many inches short of its Mv.
    Push { reduction: u8 },
}

/// Why a player discards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscardReason {
    /// Down to the maximum hand size.
    HandLimit,
    /// An ability asks for it.
    Ability,
}

/// An action being resolved (the action procedure's frame).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionInProgress {
    pub actor: ModelId,
    pub name: String,
    pub target: Option<ModelId>,
    /// How it was declared: an additional action an effect generated may
    /// not generate another (one a Charge generated may).
    #[serde(default)]
    pub slot: ActionSlot,
    /// The crew making its decisions when it is not the model's own: an
    /// action under control, or one an action under control generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Seat>,
    /// Its after-succeeding effects have resolved (set when one of them
    /// kills a model or asks a player for a model, which may wait on
    /// players before the action can end).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub effects_resolved: bool,
    /// The trigger its model declared in its duel, for the after-succeeding
    /// effects that resolve once the duel and its damage are over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Hazardous terrain models were pushed through during the action, by
    /// model: each suffers it once the action has resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pushed_through: Vec<(ModelId, String)>,
}

/// An additional action waiting for the action that generated it to end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueuedAction {
    pub model: ModelId,
    /// None until its controller names it: an action generated under
    /// control is chosen from the model's card as soon as the action that
    /// generated it has resolved, before any queued action is declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The model it must target; none: chosen when it is declared.
    pub target: Option<ModelId>,
    /// "A different model": the target chosen may not be this one, the
    /// one the effect most recently affected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub different_from: Option<ModelId>,
    /// Who makes its decisions, when not the model's own crew (control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Seat>,
    /// The melee action a Charge generated: any melee action of the model,
    /// named when it comes to be declared; unlike other additional
    /// actions it may generate another.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_charge: bool,
    /// An action of this kind the model may declare, or decline, named
    /// when it comes to be declared (Ash on the Wind's melee action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of_kind: Option<crate::duel::ActionKind>,
    /// A declared trigger generated it (not the action's own effect): in
    /// 3rd edition it then declares no triggers.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_trigger: bool,
}

/// The general actions a controlled model may be made to declare in
/// `edition`: once named, the controller sends the command itself (a path,
/// a marker, a token).
pub fn controlled_general_actions(edition: Edition) -> &'static [crate::rules::GeneralAction] {
    edition.rules().encounter.general_actions
}

impl QueuedAction {
    /// The action in progress again, by the same model under the same
    /// control, as an additional action: against `target`, or against a
    /// model chosen when it is declared, other than `different_from`.
    pub(crate) fn again(
        action: &ActionInProgress,
        target: Option<ModelId>,
        different_from: Option<ModelId>,
    ) -> Self {
        QueuedAction {
            model: action.actor,
            action: Some(action.name.clone()),
            target,
            different_from,
            controller: action.controller,
            from_charge: false,
            of_kind: None,
            by_trigger: false,
        }
    }

    /// The kind its action must be: a Charge's is a melee action.
    pub fn required_kind(&self) -> Option<crate::duel::ActionKind> {
        if self.from_charge {
            Some(crate::duel::ActionKind::Melee)
        } else {
            self.of_kind
        }
    }

    /// Named only once it is first in line, against a model in reach
    /// then; its model "may" declare it, so its controller may decline.
    pub fn named_when_declared(&self) -> bool {
        self.required_kind().is_some()
    }

    /// The crew that decides for it: its controller, or the model's owner.
    pub fn decided_by(&self, state: &GameState) -> Option<Seat> {
        self.controller
            .or_else(|| state.model(self.model).map(|m| m.owner))
    }

    /// Whether it waits for its controller before it can be declared.
    pub fn needs_choice(&self) -> bool {
        self.action.is_none() || self.target.is_none()
    }
}
