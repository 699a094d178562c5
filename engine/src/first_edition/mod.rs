//! Malifaux 1st edition, in rooms of its own: so far its content (the
//! stat cards, and crews hired by the quick reference's rules). The
//! encounter itself is issue 55's next step (docs/first-edition.md).

pub mod card;
pub mod content;
pub mod crew;

pub use card::ModelCard;
pub use content::Book;
pub use crew::{Crew, CrewList, Encounter};
