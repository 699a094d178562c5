//! Reads the tables and columns a database actually has, so tests can check
//! that both backends' migrations and `schema.rs` describe the same schema.

use std::collections::BTreeMap;

use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};

use crate::db::{DbConnection, DbError};

/// A column as both backends can describe it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ColumnShape {
    pub name: String,
    /// A backend-neutral type class: integer, text, timestamp, bool, float, binary.
    pub kind: String,
    pub nullable: bool,
}

pub type SchemaShape = BTreeMap<String, Vec<ColumnShape>>;

#[derive(QueryableByName)]
struct SqliteTable {
    #[diesel(sql_type = Text)]
    name: String,
}

#[derive(QueryableByName)]
struct SqliteColumn {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Text)]
    #[diesel(column_name = type_)]
    type_: String,
    #[diesel(sql_type = Integer)]
    notnull: i32,
    #[diesel(sql_type = Integer)]
    pk: i32,
}

#[derive(QueryableByName)]
struct PgColumn {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Text)]
    is_nullable: String,
}

/// Maps a declared SQL or diesel type name to its backend-neutral class.
pub fn type_class(declared: &str) -> String {
    let lower = declared.trim().to_ascii_lowercase();
    let class = match lower.as_str() {
        "integer" | "bigint" | "smallint" | "int" | "int2" | "int4" | "int8" | "bigserial"
        | "serial" => "integer",
        "text" | "character varying" | "varchar" => "text",
        "timestamp" | "timestamp without time zone" => "timestamp",
        "bool" | "boolean" => "bool",
        "double" | "double precision" | "real" | "float" => "float",
        "blob" | "bytea" | "binary" => "binary",
        "date" => "date",
        other => other,
    };
    class.to_owned()
}

/// The application tables (migration bookkeeping excluded) and their columns.
pub fn schema_shape(conn: &mut DbConnection) -> Result<SchemaShape, DbError> {
    let mut shape = SchemaShape::new();
    match conn {
        DbConnection::Sqlite(conn) => {
            let tables: Vec<SqliteTable> = diesel::sql_query(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' AND name <> '__diesel_schema_migrations' \
                 ORDER BY name",
            )
            .load(conn)?;
            for table in tables {
                let columns: Vec<SqliteColumn> = diesel::sql_query(
                    "SELECT name, type AS type_, \"notnull\", pk FROM pragma_table_info(?)",
                )
                .bind::<Text, _>(&table.name)
                .load(conn)?;
                let mut columns: Vec<ColumnShape> = columns
                    .into_iter()
                    .map(|c| ColumnShape {
                        name: c.name,
                        kind: type_class(&c.type_),
                        // SQLite lets an INTEGER PRIMARY KEY be declared without NOT NULL.
                        nullable: c.notnull == 0 && c.pk == 0,
                    })
                    .collect();
                columns.sort();
                shape.insert(table.name, columns);
            }
        }
        DbConnection::Postgres(conn) => {
            let columns: Vec<PgColumn> = diesel::sql_query(
                "SELECT table_name::text AS table_name, column_name::text AS column_name, \
                 data_type::text AS data_type, is_nullable::text AS is_nullable \
                 FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name <> '__diesel_schema_migrations' \
                 ORDER BY table_name, column_name",
            )
            .load(conn)?;
            for c in columns {
                shape.entry(c.table_name).or_default().push(ColumnShape {
                    name: c.column_name,
                    kind: type_class(&c.data_type),
                    nullable: c.is_nullable == "YES",
                });
            }
            for columns in shape.values_mut() {
                columns.sort();
            }
        }
    }
    Ok(shape)
}

#[derive(QueryableByName)]
struct Definition {
    #[diesel(sql_type = Text)]
    definition: String,
}

/// The codes the database lets `table.status` hold, read back from what the
/// migrations wrote (PostgreSQL's CHECK constraint, or each of SQLite's two
/// triggers, which must agree), sorted; None when there is no such check.
pub fn allowed_statuses(
    conn: &mut DbConnection,
    table: &str,
) -> Result<Option<Vec<String>>, DbError> {
    let name = format!("{table}_status_check");
    let definitions: Vec<Definition> = match conn {
        DbConnection::Sqlite(conn) => diesel::sql_query(
            "SELECT sql AS definition FROM sqlite_master WHERE type = 'trigger' \
             AND name IN (? || '_insert', ? || '_update') ORDER BY name",
        )
        .bind::<Text, _>(&name)
        .bind::<Text, _>(&name)
        .load(conn)?,
        DbConnection::Postgres(conn) => diesel::sql_query(
            "SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c \
             JOIN pg_namespace n ON n.oid = c.connamespace \
             WHERE n.nspname = current_schema() AND c.conname = $1",
        )
        .bind::<Text, _>(&name)
        .load(conn)?,
    };
    let mut lists = definitions.iter().map(|d| quoted_codes(&d.definition));
    let Some(first) = lists.next() else {
        return Ok(None);
    };
    if let Some(other) = lists.find(|list| *list != first) {
        return Err(DbError::Migration(format!(
            "{table}: the status triggers disagree ({first:?} and {other:?})"
        )));
    }
    Ok(Some(first))
}

/// The single-quoted words of a check's definition, sorted, leaving out the
/// message of SQLite's RAISE (the one quoted text with a space or a dot).
fn quoted_codes(definition: &str) -> Vec<String> {
    let mut codes: Vec<String> = definition
        .split('\'')
        .skip(1)
        .step_by(2)
        .filter(|word| !word.contains([' ', '.', ':']))
        .map(str::to_owned)
        .collect();
    codes.sort();
    codes
}

/// Parses the `diesel::table!` blocks of a schema file into the same shape.
pub fn parse_schema_rs(source: &str) -> SchemaShape {
    let mut shape = SchemaShape::new();
    let mut current: Option<String> = None;
    for line in source.lines() {
        let line = line.trim();
        if current.is_none() {
            // A table header looks like `name (id) {`.
            if let Some((name, rest)) = line.split_once(' ')
                && rest.starts_with('(')
                && line.ends_with('{')
            {
                current = Some(name.to_owned());
                shape.insert(name.to_owned(), Vec::new());
            }
            continue;
        }
        if line.starts_with('}') {
            current = None;
            continue;
        }
        let Some((column, declared)) = line.trim_end_matches(',').split_once("->") else {
            continue;
        };
        let declared = declared.trim();
        let (nullable, inner) = match declared
            .strip_prefix("Nullable<")
            .and_then(|t| t.strip_suffix('>'))
        {
            Some(inner) => (true, inner),
            None => (false, declared),
        };
        if let Some(table) = current.as_ref().and_then(|t| shape.get_mut(t)) {
            table.push(ColumnShape {
                name: column.trim().trim_start_matches("r#").to_owned(),
                kind: type_class(inner),
                nullable,
            });
        }
    }
    for columns in shape.values_mut() {
        columns.sort();
    }
    shape
}
