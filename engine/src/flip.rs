//! Flips under fate modifiers: how many cards are revealed and which of them
//! may be used.

use serde::{Deserialize, Serialize};

use super::Seat;
use super::fate::Card;
use super::limits::MAX_REVEALED;
use super::pile::CardArray;

/// What a single flip is for: it decides what happens when the flip ends.
/// (A duel's two flips happen together inside the duel frame.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlipPurpose {
    /// 3rd edition: the damage flip of the damage resolving below.
    Damage,
    /// 3rd edition: how far a successful strike shortens the push of the
    /// Disengage below (2/4/6 inches).
    Disengage,
    /// 3rd edition Assist: how much `model`'s condition `token` is
    /// lowered (1/2/3).
    Assist {
        model: crate::model::ModelId,
        token: crate::token::Token,
    },
}

/// A flip in progress (the flip procedure's frame): one player reveals
/// cards under fate modifiers, chooses one, and may cheat it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlipInProgress {
    pub seat: Seat,
    pub modifiers: i8,
    pub purpose: FlipPurpose,
    pub card: Option<Card>,
    pub cheat_decided: bool,
}

/// Where a flip stands, worked out from what has happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlipStage {
    /// The flipper chooses among the revealed cards.
    Choose,
    /// The flipper may cheat the chosen card.
    Cheat,
}

impl FlipInProgress {
    pub fn stage(&self) -> FlipStage {
        if self.card.is_some() {
            FlipStage::Cheat
        } else {
            FlipStage::Choose
        }
    }

    /// Whether the flipper may still cheat: not under a negative modifier,
    /// never the Black Joker, and only once.
    pub fn may_cheat(&self, hand_empty: bool) -> bool {
        !self.cheat_decided
            && self.modifiers >= 0
            && !self.card.is_some_and(|c| c.is_black_joker())
            && !hand_empty
    }
}

/// The cards one flip reveals: never more than four, so they live inline.
pub type RevealedCards = CardArray<MAX_REVEALED>;

/// Cards revealed for a net fate modifier: one, plus one per modifier, at
/// most four (positive and negative modifiers cancel before this).
pub fn reveal_count(net_modifier: i8) -> usize {
    1 + usize::from(net_modifier.unsigned_abs()).min(MAX_REVEALED - 1)
}

/// The revealed cards the flipper may choose. The Black Joker must always be
/// taken; with a positive modifier any card may be; with a negative one the
/// lowest value (any of them on a tie) or the Red Joker; with none there is
/// a single card.
pub fn allowed_choices(revealed: &[Card], net_modifier: i8) -> RevealedCards {
    if revealed.is_empty() {
        return RevealedCards::new();
    }
    if revealed.contains(&Card::BLACK_JOKER) {
        return std::iter::once(Card::BLACK_JOKER).collect();
    }
    if net_modifier > 0 {
        return revealed.iter().copied().collect();
    }
    if net_modifier < 0 {
        let lowest = revealed
            .iter()
            .filter(|c| !c.is_red_joker())
            .map(|c| c.value())
            .min();
        return revealed
            .iter()
            .copied()
            .filter(|c| c.is_red_joker() || Some(c.value()) == lowest)
            .collect();
    }
    revealed.iter().copied().take(1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(names: &[&str]) -> Vec<Card> {
        names.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn modifiers_reveal_one_card_each_up_to_four() {
        assert_eq!(reveal_count(0), 1);
        assert_eq!(reveal_count(2), 3);
        assert_eq!(reveal_count(-3), 4);
        assert_eq!(reveal_count(-7), 4);
        assert_eq!(reveal_count(i8::MIN), 4);
    }

    #[test]
    fn joker_and_lowest_card_rules() {
        assert_eq!(
            allowed_choices(&cards(&["4R", "7M", "12T"]), 2).as_slice(),
            cards(&["4R", "7M", "12T"])
        );
        assert_eq!(
            allowed_choices(&cards(&["4R", "7M", "12T", "4C"]), -3).as_slice(),
            cards(&["4R", "4C"])
        );
        assert_eq!(
            allowed_choices(&cards(&["9R", "RJ"]), -1).as_slice(),
            cards(&["9R", "RJ"])
        );
        assert_eq!(
            allowed_choices(&cards(&["RJ", "BJ"]), 1).as_slice(),
            cards(&["BJ"])
        );
        assert_eq!(
            allowed_choices(&cards(&["RJ"]), -1).as_slice(),
            cards(&["RJ"])
        );
        assert!(allowed_choices(&[], 1).is_empty());
    }
}
