//! A bot level as the strength benches take it on their command lines: a
//! level's name (`random`, `easy`, `normal`, `hard`), or a search of one's
//! own, `search:` and its budget's numbers separated by colons.

use soulstone_engine::bot::BotKind;

/// A level, with the budget of a search of one's own (`B`, the system's
/// budget type).
#[derive(Clone)]
pub struct Level<B> {
    pub kind: BotKind,
    pub budget: Option<B>,
    pub name: String,
}

impl<B> Level<B> {
    /// Reads `text`; `budget` makes a search's budget from its numbers.
    pub fn parse(text: &str, budget: impl FnOnce(&[usize]) -> B) -> Level<B> {
        let Some(numbers) = text.strip_prefix("search:") else {
            let kind = text.parse::<BotKind>().expect("a level");
            return Level {
                kind,
                budget: None,
                name: kind.level_name().to_owned(),
            };
        };
        let n: Vec<usize> = numbers
            .split(':')
            .map(|n| n.parse().expect("a number"))
            .collect();
        Level {
            kind: BotKind::Normal,
            budget: Some(budget(&n)),
            name: text.to_owned(),
        }
    }
}
