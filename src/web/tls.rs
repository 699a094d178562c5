//! HTTPS served by the server itself, for a venue with no proxy in front:
//! production cookies are `Secure`, so phones on the venue's Wi-Fi keep a
//! session only over HTTPS.
//!
//! With `SOULSTONE_TLS=self-signed` the server makes a certificate for its
//! public address on first start and keeps it under the data directory, so
//! phones that accepted it once keep accepting it. `SOULSTONE_TLS_CERT` and
//! `SOULSTONE_TLS_KEY` serve a certificate of the operator's own instead.

use std::fs;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use openssl::asn1::Asn1Time;
use openssl::bn::{BigNum, MsbOption};
use openssl::ec::{EcGroup, EcKey};
use openssl::hash::MessageDigest;
use openssl::nid::Nid;
use openssl::pkey::{PKey, Private};
use openssl::ssl::{SslAcceptor, SslAcceptorBuilder, SslFiletype, SslMethod};
use openssl::x509::extension::{
    BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectAlternativeName,
};
use openssl::x509::{X509, X509NameBuilder};

use crate::config::{Settings, TlsSetting};

/// How long a made certificate lasts: browsers refuse longer-lived ones.
const SELF_SIGNED_DAYS: u32 = 397;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("TLS: {0}")]
    OpenSsl(#[from] openssl::error::ErrorStack),
    #[error("TLS: cannot use {path}: {source}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What the server serves HTTPS with, to tell the operator at start.
pub struct ServedCertificate {
    pub acceptor: SslAcceptorBuilder,
    /// The certificate's SHA-256 fingerprint, as browsers show it.
    pub fingerprint: String,
    /// Where the certificate is, and whether it was made just now.
    pub path: PathBuf,
    pub made_now: bool,
}

/// The TLS acceptor the settings ask for, or `None` for plain HTTP.
pub fn acceptor(settings: &Settings) -> Result<Option<ServedCertificate>, TlsError> {
    let (cert_path, key_path, made_now) = match &settings.tls {
        TlsSetting::Off => return Ok(None),
        TlsSetting::Files { cert, key } => (cert.clone(), key.clone(), false),
        TlsSetting::SelfSigned => {
            let dir = settings.data_dir.join("tls");
            let hosts = certificate_hosts(settings);
            let made = ensure_self_signed(&dir, &hosts)?;
            (dir.join("venue.crt"), dir.join("venue.key"), made)
        }
    };
    let pem = read(&cert_path)?;
    let certificate = X509::from_pem(&pem)?;
    let mut acceptor = SslAcceptor::mozilla_intermediate_v5(SslMethod::tls())?;
    acceptor.set_certificate_chain_file(&cert_path)?;
    acceptor.set_private_key_file(&key_path, SslFiletype::PEM)?;
    acceptor.check_private_key()?;
    Ok(Some(ServedCertificate {
        acceptor,
        fingerprint: fingerprint(&certificate)?,
        path: cert_path,
        made_now,
    }))
}

/// The names a made certificate must cover: the public address's host, the
/// address the server listens on, and the loopback names.
fn certificate_hosts(settings: &Settings) -> Vec<String> {
    let mut hosts = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    if let Ok(url) = url::Url::parse(&settings.base_url)
        && let Some(host) = url.host_str()
    {
        hosts.push(
            host.trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned(),
        );
    }
    if !settings.bind.ip().is_unspecified() {
        hosts.push(settings.bind.ip().to_string());
    }
    hosts.sort();
    hosts.dedup();
    hosts
}

/// Makes a self-signed certificate for `hosts` in `dir` unless the one
/// there already covers them all. Returns whether it made one.
fn ensure_self_signed(dir: &Path, hosts: &[String]) -> Result<bool, TlsError> {
    let cert_path = dir.join("venue.crt");
    let key_path = dir.join("venue.key");
    if let Ok(pem) = fs::read(&cert_path)
        && key_path.exists()
        && let Ok(existing) = X509::from_pem(&pem)
        && covers(&existing, hosts)
        && existing.not_after() > Asn1Time::days_from_now(30)?.as_ref()
    {
        return Ok(false);
    }
    let curve = EcGroup::from_curve_name(Nid::X9_62_PRIME256V1)?;
    let key = PKey::from_ec_key(EcKey::generate(&curve)?)?;
    let certificate = self_signed(&key, hosts)?;
    fs::create_dir_all(dir).map_err(|source| TlsError::File {
        path: dir.to_owned(),
        source,
    })?;
    write_private(&key_path, &key.private_key_to_pem_pkcs8()?)?;
    fs::write(&cert_path, certificate.to_pem()?).map_err(|source| TlsError::File {
        path: cert_path.clone(),
        source,
    })?;
    Ok(true)
}

fn self_signed(key: &PKey<Private>, hosts: &[String]) -> Result<X509, TlsError> {
    let mut name = X509NameBuilder::new()?;
    name.append_entry_by_nid(Nid::COMMONNAME, "Soulstone (self-signed, for the venue)")?;
    let name = name.build();
    let mut builder = X509::builder()?;
    builder.set_version(2)?;
    let mut serial = BigNum::new()?;
    serial.rand(127, MsbOption::MAYBE_ZERO, false)?;
    let serial = serial.to_asn1_integer()?;
    builder.set_serial_number(&serial)?;
    builder.set_subject_name(&name)?;
    builder.set_issuer_name(&name)?;
    builder.set_pubkey(key)?;
    let (from, until) = (
        Asn1Time::days_from_now(0)?,
        Asn1Time::days_from_now(SELF_SIGNED_DAYS)?,
    );
    builder.set_not_before(&from)?;
    builder.set_not_after(&until)?;
    builder.append_extension(BasicConstraints::new().build()?)?;
    builder.append_extension(KeyUsage::new().digital_signature().build()?)?;
    builder.append_extension(ExtendedKeyUsage::new().server_auth().build()?)?;
    let mut names = SubjectAlternativeName::new();
    for host in hosts {
        if host.parse::<IpAddr>().is_ok() {
            names.ip(host);
        } else {
            names.dns(host);
        }
    }
    let names = names.build(&builder.x509v3_context(None, None))?;
    builder.append_extension(names)?;
    builder.sign(key, MessageDigest::sha256())?;
    Ok(builder.build())
}

/// Whether a certificate names every host.
fn covers(certificate: &X509, hosts: &[String]) -> bool {
    let Some(names) = certificate.subject_alt_names() else {
        return false;
    };
    let named: Vec<String> = names
        .iter()
        .filter_map(|name| {
            name.dnsname().map(str::to_owned).or_else(|| {
                let bytes = name.ipaddress()?;
                let ip: IpAddr = match bytes.len() {
                    4 => <[u8; 4]>::try_from(bytes).ok()?.into(),
                    16 => <[u8; 16]>::try_from(bytes).ok()?.into(),
                    _ => return None,
                };
                Some(ip.to_string())
            })
        })
        .collect();
    hosts.iter().all(|host| named.contains(host))
}

/// A SHA-256 fingerprint in the colon-separated hex browsers show.
pub fn fingerprint(certificate: &X509) -> Result<String, TlsError> {
    let digest = certificate.digest(MessageDigest::sha256())?;
    Ok(digest
        .iter()
        .map(|byte| format!("{byte:02X}"))
        .collect::<Vec<_>>()
        .join(":"))
}

fn read(path: &Path) -> Result<Vec<u8>, TlsError> {
    fs::read(path).map_err(|source| TlsError::File {
        path: path.to_owned(),
        source,
    })
}

/// Writes a private key readable by its owner only.
fn write_private(path: &Path, pem: &[u8]) -> Result<(), TlsError> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let error = |source| TlsError::File {
        path: path.to_owned(),
        source,
    };
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .map_err(error)?;
    file.write_all(pem).map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_made_certificate_is_kept_until_the_address_changes() {
        let dir = tempfile::tempdir().unwrap();
        let venue = vec!["192.168.1.20".to_owned(), "localhost".to_owned()];
        assert!(ensure_self_signed(dir.path(), &venue).unwrap());
        let first = fs::read(dir.path().join("venue.crt")).unwrap();
        let certificate = X509::from_pem(&first).unwrap();
        assert!(covers(&certificate, &venue));
        // A restart keeps the certificate phones already accepted...
        assert!(!ensure_self_signed(dir.path(), &venue).unwrap());
        assert_eq!(fs::read(dir.path().join("venue.crt")).unwrap(), first);
        // ...and a new address makes one that names it.
        let moved = vec!["10.0.0.5".to_owned(), "localhost".to_owned()];
        assert!(ensure_self_signed(dir.path(), &moved).unwrap());
        let second = X509::from_pem(&fs::read(dir.path().join("venue.crt")).unwrap()).unwrap();
        assert!(covers(&second, &moved));
        assert!(!covers(&second, &venue));
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &fs::metadata(dir.path().join("venue.key"))
                .unwrap()
                .permissions(),
        );
        assert_eq!(mode & 0o077, 0, "the key is the owner's alone");
    }
}
