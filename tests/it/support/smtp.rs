//! A real SMTP server on loopback (mailin-embedded, in-process) that keeps
//! what it receives, so tests read mail exactly as a mail server got it.

use std::net::{IpAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mailin_embedded::{Handler, Response, Server, SslConfig, response};

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub to: Vec<String>,
    /// The raw message: headers and body.
    pub data: String,
}

impl ReceivedMail {
    /// The body, with quoted-printable soft line breaks undone.
    pub fn body(&self) -> String {
        let body = self
            .data
            .split("\r\n\r\n")
            .skip(1)
            .collect::<Vec<_>>()
            .join("\r\n\r\n");
        body.replace("=\r\n", "").replace("=3D", "=")
    }

    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.data
            .split("\r\n\r\n")
            .next()?
            .lines()
            .find(|line| line.to_ascii_lowercase().starts_with(&prefix))
            .map(|line| line[prefix.len()..].trim().to_owned())
    }

    /// The first link in the body starting with `base`.
    pub fn link(&self, base: &str) -> Option<String> {
        let body = self.body();
        let start = body.find(base)?;
        let rest = &body[start..];
        let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        Some(rest[..end].to_owned())
    }
}

#[derive(Clone)]
struct Collector {
    store: Arc<Mutex<Vec<ReceivedMail>>>,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Collector {
    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.to = to.to_vec();
        self.data.clear();
        response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let mail = ReceivedMail {
            to: std::mem::take(&mut self.to),
            data: String::from_utf8_lossy(&self.data).into_owned(),
        };
        if let Ok(mut store) = self.store.lock() {
            store.push(mail);
        }
        response::OK
    }

    fn helo(&mut self, _ip: IpAddr, _domain: &str) -> Response {
        response::OK
    }
}

/// A running SMTP server; it lives until the test process ends.
#[derive(Clone)]
pub struct SmtpServer {
    pub port: u16,
    store: Arc<Mutex<Vec<ReceivedMail>>>,
}

impl SmtpServer {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind SMTP port");
        let port = listener.local_addr().expect("SMTP addr").port();
        Self::start_on(listener, port)
    }

    /// Starts on a given listener (to bring a server up on a port that was down).
    pub fn start_on(listener: TcpListener, port: u16) -> Self {
        let store = Arc::new(Mutex::new(Vec::new()));
        let handler = Collector {
            store: store.clone(),
            to: Vec::new(),
            data: Vec::new(),
        };
        let mut server = Server::new(handler);
        server
            .with_name("smtp.test.invalid")
            .with_ssl(SslConfig::None)
            .expect("no TLS")
            .with_num_threads(2)
            .with_tcp_listener(listener);
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        Self { port, store }
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn received(&self) -> Vec<ReceivedMail> {
        self.store.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Waits until a mail to `address` arrives whose subject contains `subject`.
    pub async fn wait_for(&self, address: &str, subject: &str) -> ReceivedMail {
        self.wait_for_nth(address, subject, 1).await
    }

    /// Waits until the `n`th such mail (counting from 1) arrives.
    pub async fn wait_for_nth(&self, address: &str, subject: &str, n: usize) -> ReceivedMail {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(mail) = self
                .received()
                .into_iter()
                .filter(|m| {
                    m.to.iter().any(|t| t.eq_ignore_ascii_case(address))
                        && m.header("subject").is_some_and(|s| s.contains(subject))
                })
                .nth(n - 1)
            {
                return mail;
            }
            assert!(
                Instant::now() < deadline,
                "no mail to {address} about {subject:?}; received: {:?}",
                self.received()
                    .iter()
                    .map(|m| (&m.to, m.header("subject")))
                    .collect::<Vec<_>>()
            );
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
