//! Tokens (4th edition) and conditions (3rd edition) as data. Each edition's
//! tokens come from a content file (`content/<edition>/tokens.toml`, read by
//! [`TokenBook::parse`]): per token, the timing [`Window`]s at which it
//! acts, the [`Condition`] under which it does, and the [`Effect`]s it has.
//! The procedures open a window and apply whatever the model's tokens say;
//! no rules code names a token (a test scans for it). A game carries its
//! book from setup on, so a replay reads the tokens as they were.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Edition;
use crate::duel::{DuelSpec, Stat};
use crate::limits::MAX_TOKEN_VALUE;
use crate::model::Model;

/// The longest token key.
pub const MAX_TOKEN_KEY: usize = 24;
/// Tokens one edition's book may define.
pub const MAX_TOKENS: usize = 64;

/// A token, by its key: its name in lower case with `_` for spaces
/// ("focused", "slow_to_die"). Small and `Copy`, so reading a model's
/// tokens costs nothing; the book has its name and rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Token {
    len: u8,
    bytes: [u8; MAX_TOKEN_KEY],
}

impl Token {
    /// A key: lower-case ASCII letters and `_`, 1 to 24 of them.
    pub fn new(key: &str) -> Result<Token, String> {
        let valid = !key.is_empty()
            && key.len() <= MAX_TOKEN_KEY
            && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        if !valid {
            return Err(format!(
                "{key:?} is not a token: use its name in lower case with _ for spaces (at most {MAX_TOKEN_KEY} letters)"
            ));
        }
        let mut bytes = [0; MAX_TOKEN_KEY];
        bytes[..key.len()].copy_from_slice(key.as_bytes());
        Ok(Token {
            len: key.len() as u8,
            bytes,
        })
    }

    /// The key of a token called `name` ("Slow to Die" → "slow_to_die").
    pub fn from_name(name: &str) -> Result<Token, String> {
        // "Aura (Hazardous)" → "aura_hazardous": the parenthesis is part
        // of the name the rules write, not of the key.
        let key: String = name
            .trim()
            .chars()
            .filter(|c| *c != '(' && *c != ')')
            .map(|c| if c == ' ' || c == '-' { '_' } else { c })
            .collect::<String>()
            .to_lowercase();
        Token::new(&key).map_err(|_| {
            format!(
                "{name:?} cannot name a token: letters and spaces only, at most {MAX_TOKEN_KEY}"
            )
        })
    }

    fn words(&self) -> [u64; 3] {
        const _: () = assert!(MAX_TOKEN_KEY == 3 * 8);
        let word = |i: usize| {
            let mut chunk = [0u8; 8];
            chunk.copy_from_slice(&self.bytes[i * 8..i * 8 + 8]);
            u64::from_be_bytes(chunk)
        };
        [word(0), word(1), word(2)]
    }

    pub fn as_str(&self) -> &str {
        // Built only from ASCII in `new`.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("")
    }
}

impl PartialOrd for Token {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Token {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // The order of the keys' strings: past its length a key's bytes are
        // 0, below every letter, so comparing the whole arrays as three
        // words agrees with comparing the strings, and the book's lookups
        // (thousands a game) need no byte loop.
        self.words().cmp(&other.words())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Token {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Token {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Token::new(&key).map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Token {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Token".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": "^[a-z_]{1,24}$",
            "description": "A token's name in lower case, with _ for spaces"
        })
    }
}

/// The tokens a model holds, with their values (4th edition tokens are
/// held or not: value 1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Tokens(Vec<(Token, u8)>);

impl Tokens {
    pub fn value(&self, token: Token) -> u8 {
        match self.0.binary_search_by_key(&token, |(t, _)| *t) {
            Ok(index) => self.0[index].1,
            Err(_) => 0,
        }
    }

    pub fn has(&self, token: Token) -> bool {
        self.value(token) > 0
    }

    /// Sets a value (0 removes the token).
    pub fn set(&mut self, token: Token, value: u8) {
        let value = value.min(MAX_TOKEN_VALUE);
        match self.0.binary_search_by_key(&token, |(t, _)| *t) {
            Ok(index) if value == 0 => {
                self.0.remove(index);
            }
            Ok(index) => self.0[index].1 = value,
            Err(_) if value == 0 => {}
            Err(index) => self.0.insert(index, (token, value)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (Token, u8)> + '_ {
        self.0.iter().copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Tokens {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Tokens {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = std::collections::BTreeMap::<Token, u8>::deserialize(deserializer)?;
        let mut tokens = Tokens::default();
        for (token, value) in map {
            if value > MAX_TOKEN_VALUE {
                return Err(serde::de::Error::custom(format!(
                    "{token} is at most {MAX_TOKEN_VALUE}"
                )));
            }
            tokens.set(token, value);
        }
        Ok(tokens)
    }
}

/// A moment in the rules at which tokens act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// Whenever the model's Df or Wp is read (a lasting change).
    ReadingStat,
    /// The model's activation starts.
    ActivationStarted,
    /// The model's activation ends.
    ActivationEnded,
    /// The end phase of the turn.
    EndPhase,
    /// A duel has started, before anyone modifies it (the initiator's tokens).
    DuelStarted,
    /// An attack action targets the model, at the same moment as
    /// `duel_started`. Its effects go to the attacker's side, and only when
    /// the attacker is friendly to the crew that gave the token (Adversary).
    TargetedByAttack,
    /// A side modifies its duel: the player may spend the token (`optional`).
    ModifyingDuel,
    /// A side is about to cheat fate.
    Cheating,
    /// Triggers are about to be declared.
    DeclaringTriggers,
    /// A duel is over (the initiator's tokens).
    DuelEnded,
    /// A successful attack's damage is being worked out (the attacker's tokens).
    AddingDamage,
    /// Damage is being reduced (the damaged model's tokens), after the
    /// named reductions and the tie.
    ReducingDamage,
    /// The model was killed (its own tokens).
    Killed,
}

/// When a token's effect applies at its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    #[default]
    Always,
    /// The action's duel targets an enemy model.
    TargetsEnemy,
    /// The model is the initiator of an action that targets an enemy.
    InitiatorTargetingEnemy,
    /// The duel is opposed (an attack with a resister).
    Opposed,
}

/// What a token does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "effect", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// A fate modifier on the model's side of the duel.
    FateModifier { by: i8 },
    /// The token goes (`by` 0: all of it, a 3rd edition condition's whole value).
    Remove { by: u8 },
    /// The side may not cheat.
    ForbidCheating,
    /// The side declares no triggers.
    ForbidTriggers,
    /// The damage grows by this much.
    AddDamage { by: u8 },
    /// The damage shrinks by this much (never below 0).
    ReduceDamage { by: u8 },
    /// The killed model infuses no soulstone.
    NoSoulstoneOnDeath,
    /// The model suffers this much damage (resolved after what is
    /// resolving now; at `end_phase`, `activation_started` or
    /// `activation_ended`).
    SufferDamage {
        amount: u8,
        #[serde(default)]
        irreducible: bool,
        /// Every model in base contact with the holder that is an enemy of
        /// the crew that applied the token suffers it too (Burning).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        touching_enemies: bool,
        /// 1 more damage for every this many points of the token's value
        /// beyond the first (3rd edition Burning: 3); 0, never more.
        #[serde(default, skip_serializing_if = "is_zero")]
        plus_one_per: u8,
    },
    /// The duel's total gains a suit the player names.
    AddSuit,
    /// The player looks at the top card of their deck and keeps or discards it.
    LookAtTopCard,
    /// Spent in an opposed duel: the damage flip that follows gets this
    /// modifier (3rd edition).
    DamageFlipModifier { by: i8 },
    /// The stat changes by `by`, times the token's value if `per_value`
    /// (3rd edition conditions carry a value; a 4th edition token counts once).
    ModifyStat {
        stat: Stat,
        by: i8,
        #[serde(default)]
        per_value: bool,
    },
    /// The model's action limit changes by `by` (kept within 1 to 3).
    ActionLimit { by: i8 },
    /// The model may not declare the Interact action.
    ForbidInteract,
    /// The model's Sp changes by `by` (never below 0).
    ModifySpeed { by: i8 },
    /// Enemy models' effects cannot move this model (pushes and the like).
    UnmovableByEnemies,
    /// The model is ignored for its own crew's strategy and schemes.
    IgnoredForObjectives,
    /// The model's bonus actions count against its action limit (3rd
    /// edition Stunned).
    BonusActionsCount,
    /// The model counts this suit printed on its card (an action's built-in
    /// suit) as blank, at `duel_started` (4th edition Stunned: Tomes).
    BlankCardSuit { suit: crate::fate::Suit },
}

fn is_zero(value: &u8) -> bool {
    *value == 0
}

/// One of a token's rules: at `window`, if `when` holds, `effects` happen
/// in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRule {
    pub window: Window,
    #[serde(default)]
    pub when: Condition,
    /// The player chooses whether to spend the token (at `modifying_duel`).
    #[serde(default)]
    pub optional: bool,
    /// Spent at most once per duel by the same side.
    #[serde(default)]
    pub once_per_duel: bool,
    pub effects: Vec<Effect>,
}

/// One token's definition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenDef {
    /// As the rules write it ("Focused"); its key is this in lower case.
    pub name: String,
    /// The token that cancels this one: gaining either while holding the
    /// other removes the other instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancels: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<TokenRule>,
    /// The general action Prepare may give it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prepare: bool,
    /// A 3rd edition condition with a value ("Burning +1"): gaining it again
    /// adds to the value. One without (Stunned) is held or not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_value: bool,
    /// An aura: the area within `inches` of the model holding it is terrain
    /// of this trait (4th edition Aura tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aura: Option<TokenAura>,
    /// A summoned model gains it once placed (4th edition Summon and
    /// Slow); a summoned peon does not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_summon: bool,
    /// The 3rd edition general action Concentrate gives it (+1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub concentrate: bool,
    /// The 3rd edition general action Assist may lower it (1/2/3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub assist: bool,
    /// The token in our own words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

/// The area an Aura token makes terrain: within `inches` of the model
/// holding it (not the model itself). Models friendly to the token choose
/// to be unaffected by it, as they always would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenAura {
    /// `hazardous` or `concealing`.
    pub terrain: crate::table::Trait,
    pub inches: u8,
}

impl TokenDef {
    /// The name the rules count as the same for tokens written with an
    /// effect in parentheses: "Aura (Concealment)" and "Aura (Hazardous)"
    /// are both "Aura".
    pub fn base_name(&self) -> &str {
        self.name
            .split_once('(')
            .map_or(self.name.as_str(), |(base, _)| base)
            .trim()
    }
}

/// What holds at the moment a window opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Situation {
    pub targets_enemy: bool,
    pub is_initiator: bool,
    pub opposed: bool,
}

impl Situation {
    /// The situation of a side of `spec`'s duel.
    pub fn in_duel(spec: &DuelSpec, is_initiator: bool) -> Self {
        Self {
            targets_enemy: spec.targets_enemy,
            is_initiator,
            opposed: spec.is_opposed(),
        }
    }
}

impl Condition {
    pub fn holds(self, situation: Situation) -> bool {
        match self {
            Condition::Always => true,
            Condition::TargetsEnemy => situation.targets_enemy,
            Condition::InitiatorTargetingEnemy => situation.is_initiator && situation.targets_enemy,
            Condition::Opposed => situation.opposed,
        }
    }
}

/// A token book as a game's log writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenList {
    edition: Edition,
    token: Vec<TokenDef>,
}

/// One edition's tokens, checked and indexed by key. A game's setup and
/// state carry it; reading one back checks it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "TokenList", into = "TokenList")]
pub struct TokenBook {
    pub edition: Edition,
    tokens: Vec<TokenDef>,
    /// The keys, sorted, with the index of their definition.
    index: Vec<(Token, usize)>,
    /// Whether any token is an aura: a game without one never looks at
    /// its models' tokens when it builds a table.
    has_auras: bool,
}

impl TryFrom<TokenList> for TokenBook {
    type Error = String;

    fn try_from(list: TokenList) -> Result<Self, Self::Error> {
        TokenBook::new(list.edition, list.token)
            .map_err(|(field, message)| format!("{field}: {message}"))
    }
}

impl From<TokenBook> for TokenList {
    fn from(book: TokenBook) -> Self {
        TokenList {
            edition: book.edition,
            token: book.tokens,
        }
    }
}

impl TokenBook {
    /// A book of `tokens`, checked: every name makes a key, no key twice,
    /// every cancelling token exists, optional rules only where a player
    /// can spend a token. Problems are (field, message).
    pub fn new(edition: Edition, tokens: Vec<TokenDef>) -> Result<TokenBook, (String, String)> {
        let mut book = TokenBook {
            edition,
            tokens,
            index: Vec::new(),
            has_auras: false,
        };
        book.build_index()?;
        book.has_auras = book.tokens.iter().any(|def| def.aura.is_some());
        Ok(book)
    }

    fn build_index(&mut self) -> Result<(), (String, String)> {
        if self.tokens.len() > MAX_TOKENS {
            return Err(("token".into(), format!("at most {MAX_TOKENS} tokens")));
        }
        let mut index = Vec::with_capacity(self.tokens.len());
        for (i, def) in self.tokens.iter().enumerate() {
            let field = |name: &str| format!("token[{i}].{name}");
            let key = Token::from_name(&def.name).map_err(|e| (field("name"), e))?;
            if index.iter().any(|(k, _)| *k == key) {
                return Err((field("name"), format!("{} is defined twice", def.name)));
            }
            if let Some(aura) = def.aura {
                use crate::table::Trait;
                if !self.edition.rules().content.token_auras {
                    return Err((field("aura"), "auras are 4th edition tokens".into()));
                }
                if !matches!(aura.terrain, Trait::Hazardous | Trait::Concealing) {
                    return Err((
                        field("aura.terrain"),
                        "an aura makes hazardous or concealing terrain".into(),
                    ));
                }
                if !(1..=12).contains(&aura.inches) {
                    return Err((field("aura.inches"), "1 to 12".into()));
                }
            }
            if def.has_value
                && self.edition.rules().duel.tokens != crate::rules::TokenHolding::WithValues
            {
                return Err((
                    field("has_value"),
                    "only 3rd edition conditions carry a value".into(),
                ));
            }
            for (r, rule) in def.rules.iter().enumerate() {
                if rule.optional != (rule.window == Window::ModifyingDuel) {
                    return Err((
                        field(&format!("rules[{r}].optional")),
                        "a token is spent by choice exactly when its window is modifying_duel"
                            .into(),
                    ));
                }
                if rule.effects.is_empty() {
                    return Err((field(&format!("rules[{r}].effects")), "no effect".into()));
                }
                let spending_effect = rule.effects.iter().find(|e| {
                    matches!(
                        e,
                        Effect::AddSuit | Effect::LookAtTopCard | Effect::DamageFlipModifier { .. }
                    )
                });
                if let Some(effect) = spending_effect
                    && rule.window != Window::ModifyingDuel
                {
                    return Err((
                        field(&format!("rules[{r}].effects")),
                        format!("{effect:?} comes only from spending a token (modifying_duel)"),
                    ));
                }
                let damage_effect = rule
                    .effects
                    .iter()
                    .any(|e| matches!(e, Effect::SufferDamage { .. }));
                if damage_effect
                    && !matches!(
                        rule.window,
                        Window::EndPhase | Window::ActivationStarted | Window::ActivationEnded
                    )
                {
                    return Err((
                        field(&format!("rules[{r}].effects")),
                        "suffer_damage acts at end_phase or at the start or end of an activation"
                            .into(),
                    ));
                }
                // Only the attacker's flip is changed there: the holder's own
                // side is not the one the token speaks of.
                if rule.window == Window::TargetedByAttack
                    && rule
                        .effects
                        .iter()
                        .any(|e| !matches!(e, Effect::FateModifier { .. }))
                {
                    return Err((
                        field(&format!("rules[{r}].effects")),
                        "targeted_by_attack gives the attacker a fate_modifier and nothing else"
                            .into(),
                    ));
                }
                if rule.window != Window::DuelStarted
                    && rule
                        .effects
                        .iter()
                        .any(|e| matches!(e, Effect::BlankCardSuit { .. }))
                {
                    return Err((
                        field(&format!("rules[{r}].effects")),
                        "blank_card_suit belongs at duel_started".into(),
                    ));
                }
                let lasting = |e: &Effect| {
                    matches!(
                        e,
                        Effect::ModifyStat { .. }
                            | Effect::ActionLimit { .. }
                            | Effect::ForbidInteract
                            | Effect::ModifySpeed { .. }
                            | Effect::UnmovableByEnemies
                            | Effect::IgnoredForObjectives
                            | Effect::BonusActionsCount
                    )
                };
                if rule
                    .effects
                    .iter()
                    .any(|e| lasting(e) != (rule.window == Window::ReadingStat))
                {
                    return Err((
                        field(&format!("rules[{r}].effects")),
                        "modify_stat, action_limit, forbid_interact, modify_speed, unmovable_by_enemies, ignored_for_objectives and bonus_actions_count belong at reading_stat, and only they do"
                            .into(),
                    ));
                }
            }
            index.push((key, i));
        }
        index.sort();
        for (i, def) in self.tokens.iter().enumerate() {
            if let Some(other) = &def.cancels {
                let found = Token::from_name(other)
                    .ok()
                    .is_some_and(|key| index.binary_search_by_key(&key, |(k, _)| *k).is_ok());
                if !found {
                    return Err((
                        format!("token[{i}].cancels"),
                        format!("no token called {other:?}"),
                    ));
                }
            }
        }
        self.index = index;
        Ok(())
    }

    pub fn def(&self, token: Token) -> Option<&TokenDef> {
        let i = self.index.binary_search_by_key(&token, |(k, _)| *k).ok()?;
        self.tokens.get(self.index[i].1)
    }

    pub fn contains(&self, token: Token) -> bool {
        self.def(token).is_some()
    }

    /// Whether any token of the book is an aura.
    pub fn has_auras(&self) -> bool {
        self.has_auras
    }

    /// The tokens that are auras, with their areas.
    pub fn auras(&self) -> impl Iterator<Item = (Token, &TokenDef, TokenAura)> {
        self.tokens()
            .filter_map(|(token, def)| Some((token, def, def.aura?)))
    }

    /// Whether two different tokens count as the same name (a model holds
    /// one of them at most): "Aura (Concealment)" and "Aura (Hazardous)".
    pub fn same_name(&self, a: Token, b: Token) -> bool {
        a != b
            && self
                .def(a)
                .zip(self.def(b))
                .is_some_and(|(x, y)| x.base_name().eq_ignore_ascii_case(y.base_name()))
    }

    /// Whether a model holding the token keeps the crew that applied it.
    /// Every 4th edition token does: it is friendly to that crew, and the
    /// same token applied by the other crew replaces it (M4E Tokens, lines
    /// 1468 and 1472). 3rd edition conditions have no crew.
    pub fn tracks_applier(&self, token: Token) -> bool {
        self.edition.rules().content.tokens_track_applier && self.def(token).is_some()
    }

    /// Every token, by key.
    pub fn tokens(&self) -> impl Iterator<Item = (Token, &TokenDef)> {
        self.index
            .iter()
            .filter_map(|(key, i)| Some((*key, self.tokens.get(*i)?)))
    }

    /// The token's name as the rules write it (its key if unknown).
    pub fn name(&self, token: Token) -> String {
        self.def(token)
            .map_or_else(|| token.to_string(), |def| def.name.clone())
    }

    /// The token that cancels `token`.
    pub fn cancelled_by(&self, token: Token) -> Option<Token> {
        Token::from_name(self.def(token)?.cancels.as_deref()?).ok()
    }

    /// The rules of `tokens` at `window` that hold in `situation`, in the
    /// order the model's tokens sort.
    pub fn rules_at<'a>(
        &'a self,
        tokens: &'a Tokens,
        window: Window,
        situation: Situation,
    ) -> impl Iterator<Item = (Token, &'a TokenRule)> + 'a {
        tokens.iter().flat_map(move |(token, _)| {
            self.def(token)
                .into_iter()
                .flat_map(|def| def.rules.iter())
                .filter(move |rule| rule.window == window && rule.when.holds(situation))
                .map(move |rule| (token, rule))
        })
    }

    /// The effects `tokens` have at `window` in `situation` (rules a player
    /// chooses to use are not among them), each with its token.
    pub fn effects_at(
        &self,
        tokens: &Tokens,
        window: Window,
        situation: Situation,
    ) -> Vec<(Token, Effect)> {
        // Most models hold no token: no list is built for them.
        if tokens.is_empty() {
            return Vec::new();
        }
        self.rules_at(tokens, window, situation)
            .filter(|(_, rule)| !rule.optional)
            .flat_map(|(token, rule)| rule.effects.iter().map(move |effect| (token, *effect)))
            .collect()
    }

    /// The rule by which a model may spend `token` while modifying a duel
    /// in `situation`, if there is one.
    pub fn spending(&self, token: Token, situation: Situation) -> Option<&TokenRule> {
        self.def(token)?.rules.iter().find(|rule| {
            rule.window == Window::ModifyingDuel && rule.optional && rule.when.holds(situation)
        })
    }

    /// Tokens a model may spend before a duel in some situation.
    pub fn spendable(&self) -> impl Iterator<Item = (Token, &TokenRule)> {
        self.tokens().flat_map(|(token, def)| {
            def.rules
                .iter()
                .filter(|rule| rule.window == Window::ModifyingDuel)
                .map(move |rule| (token, rule))
        })
    }

    /// Df or Wp as a duel reads it: the card's, changed by the model's tokens.
    pub fn stat_of(&self, model: &Model, stat: Stat) -> i16 {
        let printed = match stat {
            Stat::Df => model.card.df,
            Stat::Wp => model.card.wp,
        };
        (printed + self.stat_change(&model.tokens, stat)).max(0)
    }

    /// The damage flip modifier the tokens spent on a duel give.
    pub fn damage_flip_modifier(&self, spent: &[Token]) -> i8 {
        spent
            .iter()
            .filter_map(|token| self.def(*token))
            .flat_map(|def| def.rules.iter())
            .filter(|rule| rule.window == Window::ModifyingDuel)
            .flat_map(|rule| rule.effects.iter())
            .map(|effect| match effect {
                Effect::DamageFlipModifier { by } => *by,
                _ => 0,
            })
            .sum()
    }

    /// The lasting effects (at `reading_stat`) of the tokens a model holds.
    fn lasting<'a>(&'a self, tokens: &'a Tokens) -> impl Iterator<Item = Effect> + 'a {
        tokens
            .iter()
            .filter_map(|(token, _)| self.def(token))
            .flat_map(|def| def.rules.iter())
            .filter(|rule| rule.window == Window::ReadingStat)
            .flat_map(|rule| rule.effects.iter().copied())
    }

    /// How much `tokens` change the action limit.
    pub fn action_limit_change(&self, tokens: &Tokens) -> i8 {
        self.lasting(tokens)
            .map(|effect| match effect {
                Effect::ActionLimit { by } => by,
                _ => 0,
            })
            .sum()
    }

    /// The Sp a Walk or Charge moves the model: its card's, changed by its
    /// tokens (Hastened, Staggered), never below 0.
    pub fn speed_of(&self, model: &Model) -> u8 {
        let change: i16 = self
            .lasting(&model.tokens)
            .map(|effect| match effect {
                Effect::ModifySpeed { by } => i16::from(by),
                _ => 0,
            })
            .sum();
        u8::try_from((i16::from(model.card.speed) + change).clamp(0, i16::from(u8::MAX)))
            .unwrap_or(u8::MAX)
    }

    /// Whether `tokens` have their holder ignored for its crew's strategy
    /// and schemes (Craven).
    pub fn ignored_for_objectives(&self, tokens: &Tokens) -> bool {
        self.lasting(tokens)
            .any(|effect| effect == Effect::IgnoredForObjectives)
    }

    /// Whether `tokens` keep enemy models from moving their holder.
    pub fn unmovable_by_enemies(&self, tokens: &Tokens) -> bool {
        self.lasting(tokens)
            .any(|effect| effect == Effect::UnmovableByEnemies)
    }

    /// Whether `tokens` make bonus actions count against the action limit.
    pub fn bonus_actions_count(&self, tokens: &Tokens) -> bool {
        self.lasting(tokens)
            .any(|effect| effect == Effect::BonusActionsCount)
    }

    /// Whether `tokens` forbid the Interact action.
    pub fn forbids_interact(&self, tokens: &Tokens) -> bool {
        self.lasting(tokens)
            .any(|effect| effect == Effect::ForbidInteract)
    }

    /// The tokens Prepare may give.
    pub fn preparable(&self) -> impl Iterator<Item = Token> + '_ {
        self.keys_where(|def| def.prepare)
    }

    /// The token the general action Concentrate gives, if the book has one.
    pub fn concentrate_gives(&self) -> Option<Token> {
        self.keys_where(|def| def.concentrate).next()
    }

    /// The tokens the general action Assist may lower, in the book's order.
    pub fn assist_lowers(&self) -> impl Iterator<Item = Token> + '_ {
        self.keys_where(|def| def.assist)
    }

    /// The tokens a summoned model gains, in the book's order.
    pub fn gained_on_summon(&self) -> impl Iterator<Item = Token> + '_ {
        self.keys_where(|def| def.on_summon)
    }

    fn keys_where<'a>(
        &'a self,
        wanted: impl Fn(&TokenDef) -> bool + 'a,
    ) -> impl Iterator<Item = Token> + 'a {
        // In the book's order, by the keys worked out when it was loaded.
        self.tokens
            .iter()
            .enumerate()
            .filter(move |(_, def)| wanted(def))
            .filter_map(|(i, _)| self.index.iter().find(|(_, at)| *at == i).map(|(k, _)| *k))
    }

    /// How much `tokens` change `stat`.
    pub fn stat_change(&self, tokens: &Tokens, stat: Stat) -> i16 {
        let mut change = 0;
        for (token, value) in tokens.iter() {
            let Some(def) = self.def(token) else { continue };
            for rule in def.rules.iter().filter(|r| r.window == Window::ReadingStat) {
                for effect in &rule.effects {
                    if let Effect::ModifyStat {
                        stat: changed,
                        by,
                        per_value,
                    } = *effect
                        && changed == stat
                    {
                        let times = if per_value { i16::from(value) } else { 1 };
                        change += i16::from(by) * times;
                    }
                }
            }
        }
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn tokens_sort_as_their_keys(a in "[a-z_]{1,24}", b in "[a-z_]{1,24}") {
            let (ta, tb) = (Token::new(&a).unwrap(), Token::new(&b).unwrap());
            prop_assert_eq!(ta.cmp(&tb), a.cmp(&b));
            prop_assert_eq!(ta == tb, a == b);
        }
    }
}
