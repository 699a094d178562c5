//! The audit log: corrections to finished events and other staff actions.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::audit_log;
use super::{DbConnection, DbError};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = audit_log)]
pub struct AuditEntry {
    pub id: i64,
    pub at: NaiveDateTime,
    pub actor_account_id: Option<i64>,
    pub event_id: Option<i64>,
    pub action: String,
    pub detail: String,
}

pub fn record(
    conn: &mut DbConnection,
    actor: Option<i64>,
    event_id: Option<i64>,
    action: &str,
    detail: &str,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(audit_log::table)
        .values((
            audit_log::at.eq(now),
            audit_log::actor_account_id.eq(actor),
            audit_log::event_id.eq(event_id),
            audit_log::action.eq(action),
            audit_log::detail.eq(detail),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn for_event(conn: &mut DbConnection, event_id: i64) -> Result<Vec<AuditEntry>, DbError> {
    Ok(audit_log::table
        .filter(audit_log::event_id.eq(event_id))
        .order(audit_log::id.asc())
        .select(AuditEntry::as_select())
        .load(conn)?)
}
