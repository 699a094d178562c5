//! Forms that send files (`multipart/form-data`): read whole, within a
//! bound, and refused unless their CSRF token is right, like every form.

use actix_multipart::Multipart;
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use futures_util::StreamExt;

use crate::content::pack::Upload;
use crate::web::AppState;
use crate::web::error::AppError;
use crate::web::session::{CSRF_FIELD, request_session};

/// The most bytes an upload form may send: a pack at its largest, zipped
/// or not, and the form's fields.
pub const MAX_UPLOAD_BYTES: usize = crate::content::pack::MAX_PACK_BYTES + 64 * 1024;

/// An upload form: its text fields and its files (a file input left
/// empty sends nothing here).
pub struct CsrfUpload {
    pub fields: Vec<(String, String)>,
    pub files: Vec<Upload>,
}

impl CsrfUpload {
    /// The text field `name`, or an empty string.
    pub fn field(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(key, _)| key == name)
            .map_or("", |(_, value)| value.as_str())
    }
}

impl FromRequest for CsrfUpload {
    type Error = AppError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, AppError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let multipart = Multipart::from_request(&req, payload);
        Box::pin(async move {
            let mut multipart = multipart.await.map_err(|_| {
                AppError::bad_request("The form could not be read: it was not sent as an upload.")
            })?;
            let too_large = || {
                AppError::bad_request(format!(
                    "The upload is too large: at most {} MiB.",
                    MAX_UPLOAD_BYTES / 1024 / 1024
                ))
            };
            let unreadable = |_| AppError::bad_request("The upload could not be read.");
            let mut read = 0usize;
            let mut fields = Vec::new();
            let mut files = Vec::new();
            while let Some(field) = multipart.next().await {
                let mut field = field.map_err(unreadable)?;
                let name = field.name().unwrap_or_default().to_owned();
                let file_name = field
                    .content_disposition()
                    .and_then(|d| d.get_filename())
                    .map(ToOwned::to_owned);
                let mut bytes = Vec::new();
                while let Some(chunk) = field.next().await {
                    let chunk = chunk.map_err(unreadable)?;
                    read = read.saturating_add(chunk.len());
                    if read > MAX_UPLOAD_BYTES {
                        return Err(too_large());
                    }
                    bytes.extend_from_slice(&chunk);
                }
                match file_name {
                    // A file input left empty.
                    Some(file) if file.is_empty() && bytes.is_empty() => {}
                    Some(file) => files.push(Upload {
                        // Only the name, never a path a browser may send.
                        name: file.rsplit(['/', '\\']).next().unwrap_or(&file).to_owned(),
                        bytes,
                    }),
                    None => {
                        let value = String::from_utf8(bytes).map_err(|_| {
                            AppError::bad_request("A field of the form is not UTF-8 text.")
                        })?;
                        if value.contains('\0') {
                            return Err(AppError::bad_request(
                                "The form holds a NUL character, which cannot be kept.",
                            ));
                        }
                        fields.push((name, value));
                    }
                }
            }
            let session = request_session(&req);
            let state = req
                .app_data::<web::Data<AppState>>()
                .ok_or_else(|| AppError::internal("application state missing"))?;
            let submitted = fields
                .iter()
                .find(|(key, _)| key == CSRF_FIELD)
                .map(|(_, value)| value.as_str());
            let valid = match (&session, submitted) {
                (Some(session), Some(token)) => state.csrf.verify(&session.csrf_cookie, token),
                _ => false,
            };
            if !valid {
                return Err(AppError::forbidden(
                    "This form has expired or did not come from this site. Go back, reload the page and send it again.",
                ));
            }
            Ok(Self { fields, files })
        })
    }
}
