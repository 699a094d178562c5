//! Form validation results shown next to the fields they belong to.

use std::collections::BTreeMap;

use actix_web::HttpResponse;
use actix_web::http::StatusCode;

use crate::web::error::AppError;
use crate::web::layout::{PageContext, render_page};

#[derive(Debug, Default, Clone)]
pub struct FormErrors {
    fields: BTreeMap<&'static str, String>,
    general: String,
}

impl FormErrors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, field: &'static str, message: impl Into<String>) {
        self.fields.entry(field).or_insert_with(|| message.into());
    }

    /// Keeps the value of a valid input, or records why it is not valid.
    pub fn check<T, E: std::fmt::Display>(
        &mut self,
        field: &'static str,
        result: Result<T, E>,
    ) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(err) => {
                self.add(field, err.to_string());
                None
            }
        }
    }

    pub fn set_general(&mut self, message: impl Into<String>) {
        self.general = message.into();
    }

    /// The message for a field, or "" (templates test with `is_empty`).
    pub fn get(&self, field: &str) -> &str {
        self.fields
            .get(field)
            .map(String::as_str)
            .unwrap_or_default()
    }

    pub fn general(&self) -> &str {
        &self.general
    }

    /// Each field's message with the field's name, in field order, for the
    /// summary above a form (each links to its field, `f-<name>`).
    pub fn by_field(&self) -> Vec<(&'static str, &str)> {
        self.fields
            .iter()
            .map(|(field, message)| (*field, message.as_str()))
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() && self.general.is_empty()
    }

    /// All messages, for API answers.
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = self
            .fields
            .iter()
            .map(|(field, message)| format!("{field}: {message}"))
            .collect();
        if !self.general.is_empty() {
            parts.insert(0, self.general.clone());
        }
        parts.join("; ")
    }
}

/// Renders a form page again with its errors: 422 so clients and tests can
/// tell a refusal from a success, while the browser shows the page.
pub fn render_invalid<T: askama::Template>(
    ctx: &PageContext,
    page: &T,
) -> Result<HttpResponse, AppError> {
    render_with_status(ctx, page, StatusCode::UNPROCESSABLE_ENTITY)
}

pub fn render_with_status<T: askama::Template>(
    ctx: &PageContext,
    page: &T,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let mut response = render_page(ctx, page)?;
    *response.status_mut() = status;
    Ok(response)
}
