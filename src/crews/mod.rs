//! Crew lists as players write them: the crew builder's steps over the
//! content, with every hiring rule the engine's own (`CrewList::appraise`),
//! and the lists players keep on their accounts.

pub mod builder;
pub mod saved;
