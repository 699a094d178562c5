//! One structured log line per request: method, route, status and latency.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{Error, HttpMessage};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RootSpanBuilder};

pub struct RequestLog;

#[derive(Clone, Copy)]
struct RequestStarted(Instant);

impl RootSpanBuilder for RequestLog {
    fn on_request_start(request: &ServiceRequest) -> Span {
        request
            .extensions_mut()
            .insert(RequestStarted(Instant::now()));
        DefaultRootSpanBuilder::on_request_start(request)
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        if let Ok(response) = outcome {
            let elapsed_ms = response
                .request()
                .extensions()
                .get::<RequestStarted>()
                .map(|started| started.0.elapsed().as_secs_f64() * 1000.0);
            let status = response.status().as_u16();
            span.in_scope(|| {
                tracing::info!(status, elapsed_ms, "request finished");
            });
        }
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}
