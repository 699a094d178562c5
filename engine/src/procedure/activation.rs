//! A model's activation: its start (once-per-activation limits start
//! again, start-of-activation tokens and abilities), the actions the game
//! flow takes for it inside, and its end (end-of-activation tokens, such
//! as a token that lasts until then, and abilities).

use super::*;

impl Sim<'_> {
    pub(super) fn start_activation(&mut self, model: ModelId) -> Result<(), RuleError> {
        if self.state.frame().is_some() {
            return refuse("another model's activation is in progress: end it first");
        }
        let owner = self
            .state
            .model(model)
            .filter(|m| m.in_play())
            .map(|m| m.owner)
            .ok_or_else(|| RuleError::invalid(format!("model {} is not in play", model.0)))?;
        self.push_check()?;
        self.emit(Event::ActivationStarted { model })?;
        self.open_window(model, None, Window::ActivationStarted, Situation::default())?;
        let fired = self.fired(
            model,
            AbilityWindow::ActivationStarted,
            Situation::default(),
            None,
        );
        self.resolve_batch(fired, owner, None)
    }

    pub(super) fn end_activation(&mut self) -> Result<(), RuleError> {
        let Some(Frame::Activation { model }) = self.state.frame() else {
            return refuse("no activation is in progress");
        };
        let model = *model;
        let owner = self.model_owner(model)?;
        self.open_window(model, None, Window::ActivationEnded, Situation::default())?;
        let fired = self.fired(
            model,
            AbilityWindow::ActivationEnded,
            Situation::default(),
            None,
        );
        self.resolve_batch(fired, owner, Some(AfterAbilities::EndActivation { model }))
    }
}
