//! Hiring as a scenario step: a crew list hired against the content, its
//! pool and cost or the rule it breaks checked as the file says.

use serde::{Deserialize, Serialize};

use super::ScenarioError;
use crate::Edition;
use crate::content::Catalog;

/// Hiring as a scenario writes it: a list in, the pool or the refusal out.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HiringCheck {
    /// A crew list in the plain-text format (`docs/content.md`), of the
    /// scenario's edition.
    pub list: String,
    /// The soulstones the crew must start with.
    #[serde(default)]
    pub pool: Option<u8>,
    /// The soulstones its models must cost together.
    #[serde(default)]
    pub spent: Option<u8>,
    /// The list must not hire, and one of its refusals must contain these
    /// words.
    #[serde(default)]
    pub refused: Option<String>,
    #[serde(default)]
    pub note: String,
}

/// What hiring one list gave.
#[derive(Debug, Clone, Serialize)]
pub struct HiringReport {
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spent: Option<u8>,
    /// Each rule the list breaks, naming the model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refusals: Vec<String>,
}

impl HiringCheck {
    /// Hires the list; the report, and what the check finds wrong with it.
    pub(super) fn run(
        &self,
        index: usize,
        edition: Edition,
        catalog: &Catalog,
    ) -> Result<(HiringReport, Vec<String>), ScenarioError> {
        let at = |message: String| format!("hiring {index}: {message}");
        let list = crate::content::crew::CrewList::parse(&self.list)
            .map_err(|e| ScenarioError::Parse(at(e)))?;
        if list.edition != edition {
            return Err(ScenarioError::Setup(at(format!(
                "the list is of {}, the scenario of {}",
                list.edition.name(),
                edition.name()
            ))));
        }
        let mut failures = Vec::new();
        let report = match list.hire(catalog) {
            Ok(hired) => {
                if let Some(words) = &self.refused {
                    failures.push(at(format!(
                        "expected a refusal ({words}) but the list hires, leaving a pool of {}",
                        hired.pool
                    )));
                }
                for (what, expected, actual) in [
                    ("pool", self.pool, hired.pool),
                    ("spent", self.spent, hired.spent),
                ] {
                    if let Some(expected) = expected
                        && expected != actual
                    {
                        failures.push(at(format!("{what} is {actual}, expected {expected}")));
                    }
                }
                HiringReport {
                    index,
                    pool: Some(hired.pool),
                    spent: Some(hired.spent),
                    refusals: Vec::new(),
                }
            }
            Err(errors) => {
                let refusals: Vec<String> = errors
                    .iter()
                    .map(|e| format!("{}: {}", e.model, e.rule))
                    .collect();
                match &self.refused {
                    Some(words) if refusals.iter().any(|r| r.contains(words.as_str())) => {}
                    Some(words) => failures.push(at(format!(
                        "refused, but not for {words:?}: {}",
                        refusals.join("; ")
                    ))),
                    None => failures.push(at(format!("refused: {}", refusals.join("; ")))),
                }
                HiringReport {
                    index,
                    pool: None,
                    spent: None,
                    refusals,
                }
            }
        };
        Ok((report, failures))
    }
}
