//! The pools that ship with Soulstone, from the TOML files under `content/pools/`
//! (embedded in the binary so a release build needs no data files beside it).

use super::pool::{Pool, PoolError};
use crate::systems::GameSystem;

/// The shipped pool files, oldest first within each edition.
const SHIPPED_POOL_FILES: &[(&str, &str)] = &[
    (
        "m3e-core.toml",
        include_str!("../../content/pools/m3e-core.toml"),
    ),
    (
        "m3e-gg1.toml",
        include_str!("../../content/pools/m3e-gg1.toml"),
    ),
    (
        "m3e-gg2.toml",
        include_str!("../../content/pools/m3e-gg2.toml"),
    ),
    (
        "m3e-gg3.toml",
        include_str!("../../content/pools/m3e-gg3.toml"),
    ),
    (
        "m3e-gg4.toml",
        include_str!("../../content/pools/m3e-gg4.toml"),
    ),
    (
        "m4e-soulstone.toml",
        include_str!("../../content/pools/m4e-soulstone.toml"),
    ),
    (
        "m1e-core.toml",
        include_str!("../../content/pools/m1e-core.toml"),
    ),
];

/// The shipped 4th edition pool: the project's own strategies and schemes,
/// not a published Gaining Grounds season.
pub const OWN_SEASON_POOL: &str = "m4e-soulstone";

#[derive(Debug, thiserror::Error)]
#[error("shipped pool {file} is invalid: {source}")]
pub struct ShippedPoolError {
    pub file: &'static str,
    #[source]
    pub source: PoolError,
}

/// Parses every shipped pool (done once at start-up).
pub fn shipped_pools() -> Result<Vec<Pool>, ShippedPoolError> {
    SHIPPED_POOL_FILES
        .iter()
        .map(|(file, source)| {
            Pool::parse_toml(source).map_err(|source| ShippedPoolError { file, source })
        })
        .collect()
}

/// The newest shipped pool of an edition (the default when none is named).
pub fn newest_shipped_pool(pools: &[Pool], system: GameSystem) -> Option<&Pool> {
    pools.iter().rev().find(|pool| pool.edition() == system)
}
