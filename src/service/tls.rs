//! TLS and mutual TLS on the gRPC port, through rustls (with the `ring` provider): the
//! certificate chain, its key and, for mutual TLS, the client CA, read from PEM files.
//!
//! [`Tls::load`] checks the files at start: each must be readable and parse, the
//! certificate must be valid now (its not-before passed, its not-after not yet) and the
//! key must fit it. Every [`TlsFiles::reload_interval`] ([`RELOAD_INTERVAL`] for
//! `climbot serve`) [`Tls::watch`] reads the files again; when their contents changed
//! and pass the same checks, new handshakes use them (the client CA too) while open
//! connections go on with what they were set up with. Files that fail the checks are
//! logged (warn) and the previous configuration stays.
//!
//! The server speaks HTTP/2 only, so the one protocol offered through ALPN is `h2`.

use crate::service::metrics;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::sign::{CertifiedKey, SingleCertAndKey};
use rustls::{InconsistentKeys, RootCertStore, ServerConfig};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_rustls::TlsAcceptor;

/// How often `climbot serve` reads the TLS files again to pick up a rotated certificate.
pub const RELOAD_INTERVAL: Duration = Duration::from_secs(5);

/// The shortest reload interval taken: a zero interval is read as this.
const SHORTEST_RELOAD_INTERVAL: Duration = Duration::from_millis(10);

/// The largest TLS file read: a certificate chain, a key or a CA bundle is far smaller.
const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// The protocol offered through ALPN: HTTP/2, the only one served.
const ALPN_H2: &[u8] = b"h2";

/// Where the TLS files are, and how often they are read again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// The certificate chain served, PEM, leaf first (`--tls-cert`).
    pub cert: PathBuf,
    /// Its private key, PEM: PKCS#8, PKCS#1 (RSA) or SEC1 (EC) (`--tls-key`).
    pub key: PathBuf,
    /// For mutual TLS: the CA certificates, PEM, that client certificates must be
    /// signed by (`--tls-client-ca`). `None`: clients are not asked for one.
    pub client_ca: Option<PathBuf>,
    /// How often the files are read again ([`RELOAD_INTERVAL`] for `climbot serve`).
    pub reload_interval: Duration,
}

/// One of the TLS files, by the flag that names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsFile {
    /// `--tls-cert`.
    Cert,
    /// `--tls-key`.
    Key,
    /// `--tls-client-ca`.
    ClientCa,
}

impl TlsFile {
    /// The flag that names the file.
    pub const fn flag(self) -> &'static str {
        match self {
            TlsFile::Cert => "--tls-cert",
            TlsFile::Key => "--tls-key",
            TlsFile::ClientCa => "--tls-client-ca",
        }
    }
}

/// Why the TLS files make no server configuration. Each names the flag and the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TlsError {
    /// The file cannot be read: missing, not allowed, a directory.
    Unreadable {
        /// Which file.
        file: TlsFile,
        /// Its path.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// The file does not hold what the flag takes, or it does not parse.
    Unparsable {
        /// Which file.
        file: TlsFile,
        /// Its path.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The certificate's validity has not begun.
    NotYetValid {
        /// The certificate's path.
        path: PathBuf,
        /// Its not-before time.
        not_before: String,
    },
    /// The certificate's validity has ended.
    Expired {
        /// The certificate's path.
        path: PathBuf,
        /// Its not-after time.
        not_after: String,
    },
    /// The key is not the certificate's.
    Mismatched {
        /// The certificate's path.
        cert: PathBuf,
        /// The key's path.
        key: PathBuf,
    },
    /// rustls made no server configuration of the files.
    Refused(String),
}

impl std::fmt::Display for TlsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TlsError::Unreadable { file, path, reason } => write!(
                f,
                "{} {}: cannot be read: {reason}",
                file.flag(),
                path.display()
            ),
            TlsError::Unparsable { file, path, reason } => {
                write!(f, "{} {}: {reason}", file.flag(), path.display())
            }
            TlsError::NotYetValid { path, not_before } => write!(
                f,
                "--tls-cert {}: the certificate is not valid before {not_before}",
                path.display()
            ),
            TlsError::Expired { path, not_after } => write!(
                f,
                "--tls-cert {}: the certificate expired at {not_after}",
                path.display()
            ),
            TlsError::Mismatched { cert, key } => write!(
                f,
                "--tls-key {} is not the key of the certificate in --tls-cert {}",
                key.display(),
                cert.display()
            ),
            TlsError::Refused(reason) => write!(f, "no TLS configuration: {reason}"),
        }
    }
}

impl std::error::Error for TlsError {}

/// What a [`Tls::reload`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reload {
    /// The files are as they were when last loaded.
    Unchanged,
    /// The files changed and passed the checks: new handshakes use them.
    Reloaded,
}

/// The TLS side of the gRPC port: the server configuration of new handshakes, made
/// again when the files change. Clones share it.
#[derive(Clone)]
pub struct Tls(Arc<Shared>);

struct Shared {
    files: TlsFiles,
    current: RwLock<Loaded>,
}

/// A configuration made of the files, and what they held.
struct Loaded {
    config: Arc<ServerConfig>,
    /// The leaf certificate's not-after, in seconds since the Unix epoch...
    not_after: i64,
    /// ...and as text.
    not_after_text: String,
    contents: Contents,
}

/// The bytes of the TLS files.
#[derive(Clone, PartialEq, Eq)]
struct Contents {
    cert: Vec<u8>,
    key: Vec<u8>,
    client_ca: Option<Vec<u8>>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("files", &self.0.files)
            .field("not_after", &self.not_after())
            .finish_non_exhaustive()
    }
}

impl Tls {
    /// Reads and checks the files: the error names the flag and the file at fault.
    pub fn load(files: TlsFiles) -> Result<Tls, TlsError> {
        let contents = Contents::read(&files)?;
        let loaded = build(&files, contents, SystemTime::now())?;
        Ok(Tls(Arc::new(Shared {
            files,
            current: RwLock::new(loaded),
        })))
    }

    /// The files, as given.
    pub fn files(&self) -> &TlsFiles {
        &self.0.files
    }

    /// Whether clients must present a certificate signed by the client CA.
    pub fn is_mutual(&self) -> bool {
        self.0.files.client_ca.is_some()
    }

    /// The serving certificate's not-after, in seconds since the Unix epoch.
    pub fn not_after(&self) -> i64 {
        self.read(|loaded| loaded.not_after)
    }

    /// The serving certificate's not-after, as text (`Jan  1 00:00:00 2090 +00:00`).
    pub fn not_after_text(&self) -> String {
        self.read(|loaded| loaded.not_after_text.clone())
    }

    /// An acceptor for one new connection, with the configuration loaded last.
    pub fn acceptor(&self) -> TlsAcceptor {
        TlsAcceptor::from(self.read(|loaded| loaded.config.clone()))
    }

    /// Sets the gauge of the serving certificate's expiry.
    pub fn record_expiry(&self) {
        metrics::record_tls_certificate_expiry(self.not_after());
    }

    /// Reads the files again; when they changed and pass the checks, new handshakes
    /// use them. On an error the previous configuration stays.
    pub fn reload(&self) -> Result<Reload, TlsError> {
        let contents = Contents::read(&self.0.files)?;
        if self.read(|loaded| loaded.contents == contents) {
            return Ok(Reload::Unchanged);
        }
        let loaded = build(&self.0.files, contents, SystemTime::now())?;
        *self
            .0
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner) = loaded;
        Ok(Reload::Reloaded)
    }

    /// Reads the files again every [`TlsFiles::reload_interval`], for as long as it
    /// runs: a change that passes the checks is logged (info) and sets the expiry
    /// gauge; one that does not is logged once (warn) and the previous certificate
    /// stays.
    pub async fn watch(self) {
        let period = self.0.files.reload_interval.max(SHORTEST_RELOAD_INTERVAL);
        let mut ticks = tokio::time::interval(period);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        let mut last_warning: Option<String> = None;
        loop {
            ticks.tick().await;
            let tls = self.clone();
            let outcome = match tokio::task::spawn_blocking(move || tls.reload()).await {
                Ok(outcome) => outcome,
                Err(error) => {
                    tracing::warn!(%error, "reading the TLS files failed");
                    continue;
                }
            };
            match outcome {
                Ok(Reload::Unchanged) => last_warning = None,
                Ok(Reload::Reloaded) => {
                    last_warning = None;
                    self.record_expiry();
                    tracing::info!(
                        cert = %self.0.files.cert.display(),
                        not_after = %self.not_after_text(),
                        "TLS files changed: new handshakes use them"
                    );
                }
                Err(error) => {
                    let message = error.to_string();
                    if last_warning.as_deref() != Some(message.as_str()) {
                        tracing::warn!(
                            error = %message,
                            "TLS files changed but are not usable; still serving the previous certificate"
                        );
                        last_warning = Some(message);
                    }
                }
            }
        }
    }

    fn read<T>(&self, f: impl FnOnce(&Loaded) -> T) -> T {
        f(&self
            .0
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner))
    }
}

impl Contents {
    fn read(files: &TlsFiles) -> Result<Contents, TlsError> {
        Ok(Contents {
            cert: read_file(TlsFile::Cert, &files.cert)?,
            key: read_file(TlsFile::Key, &files.key)?,
            client_ca: match &files.client_ca {
                Some(path) => Some(read_file(TlsFile::ClientCa, path)?),
                None => None,
            },
        })
    }
}

/// The bytes of `path`, up to [`MAX_FILE_BYTES`].
fn read_file(file: TlsFile, path: &Path) -> Result<Vec<u8>, TlsError> {
    let unreadable = |error: std::io::Error| TlsError::Unreadable {
        file,
        path: path.to_path_buf(),
        reason: error.to_string(),
    };
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(unreadable)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(TlsError::Unparsable {
            file,
            path: path.to_path_buf(),
            reason: format!("larger than {MAX_FILE_BYTES} bytes: not a PEM file"),
        });
    }
    Ok(bytes)
}

/// The server configuration of `contents`, checked at `now`.
fn build(files: &TlsFiles, contents: Contents, now: SystemTime) -> Result<Loaded, TlsError> {
    let unparsable = |file: TlsFile, reason: String| TlsError::Unparsable {
        file,
        path: match file {
            TlsFile::Cert => files.cert.clone(),
            TlsFile::Key => files.key.clone(),
            TlsFile::ClientCa => files.client_ca.clone().unwrap_or_default(),
        },
        reason,
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());

    let chain = certificates(&contents.cert).map_err(|reason| unparsable(TlsFile::Cert, reason))?;
    let (not_before, not_after) = validity(&chain[0]).map_err(|reason| {
        unparsable(
            TlsFile::Cert,
            format!("the certificate does not parse: {reason}"),
        )
    })?;
    let key = PrivateKeyDer::from_pem_slice(&contents.key).map_err(|error| {
        unparsable(
            TlsFile::Key,
            match error {
                pem::Error::NoItemsFound => {
                    "no PRIVATE KEY block (PKCS#8, RSA or EC) in the file".to_string()
                }
                error => format!("not a PEM private key: {error}"),
            },
        )
    })?;
    let key = provider
        .key_provider
        .load_private_key(key)
        .map_err(|error| unparsable(TlsFile::Key, format!("the key is not usable: {error}")))?;

    let now = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    if now < not_before.0 {
        return Err(TlsError::NotYetValid {
            path: files.cert.clone(),
            not_before: not_before.1,
        });
    }
    if now > not_after.0 {
        return Err(TlsError::Expired {
            path: files.cert.clone(),
            not_after: not_after.1,
        });
    }

    let certified = CertifiedKey::new(chain, key);
    match certified.keys_match() {
        // A key that cannot tell its public half would be taken on trust; ring's all can.
        Ok(()) | Err(rustls::Error::InconsistentKeys(InconsistentKeys::Unknown)) => {}
        Err(rustls::Error::InconsistentKeys(InconsistentKeys::KeyMismatch)) => {
            return Err(TlsError::Mismatched {
                cert: files.cert.clone(),
                key: files.key.clone(),
            });
        }
        Err(error) => {
            return Err(unparsable(
                TlsFile::Cert,
                format!("the certificate does not parse: {error}"),
            ));
        }
    }

    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|error| TlsError::Refused(error.to_string()))?;
    let builder = match &contents.client_ca {
        Some(bytes) => builder.with_client_cert_verifier(
            client_verifier(bytes, provider)
                .map_err(|reason| unparsable(TlsFile::ClientCa, reason))?,
        ),
        None => builder.with_no_client_auth(),
    };
    let mut config = builder.with_cert_resolver(Arc::new(SingleCertAndKey::from(certified)));
    config.alpn_protocols = vec![ALPN_H2.to_vec()];
    Ok(Loaded {
        config: Arc::new(config),
        not_after: not_after.0,
        not_after_text: not_after.1,
        contents,
    })
}

/// The PEM certificates of a file, at least one.
fn certificates(bytes: &[u8]) -> Result<Vec<CertificateDer<'static>>, String> {
    let chain = CertificateDer::pem_slice_iter(bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| format!("not a PEM certificate file: {error}"))?;
    if chain.is_empty() {
        return Err("no CERTIFICATE block in the file".to_string());
    }
    Ok(chain)
}

/// A certificate's not-before and not-after, each in seconds since the Unix epoch and
/// as text.
type Validity = ((i64, String), (i64, String));

fn validity(cert: &CertificateDer<'_>) -> Result<Validity, String> {
    let (_, parsed) =
        x509_parser::parse_x509_certificate(cert.as_ref()).map_err(|error| error.to_string())?;
    let validity = parsed.validity();
    let time = |t: &x509_parser::time::ASN1Time| (t.timestamp(), t.to_string());
    Ok((time(&validity.not_before), time(&validity.not_after)))
}

/// The identity of a client certificate (DER): its subject's common name, else its
/// first DNS subject alternative name, as a client name
/// ([`crate::service::fair::client_name_from_certificate`]); `None` if it has neither
/// or does not parse.
pub fn client_identity(der: &[u8]) -> Option<Arc<str>> {
    let (_, parsed) = x509_parser::parse_x509_certificate(der).ok()?;
    let common_name = parsed
        .subject()
        .iter_common_name()
        .find_map(|cn| cn.as_str().ok().map(str::to_string));
    let name = common_name.or_else(|| {
        let san = parsed.subject_alternative_name().ok()??;
        san.value.general_names.iter().find_map(|name| match name {
            x509_parser::extensions::GeneralName::DNSName(dns) => Some(dns.to_string()),
            _ => None,
        })
    })?;
    crate::service::fair::client_name_from_certificate(&name)
}

/// The verifier of client certificates signed by the CAs of `bytes`.
fn client_verifier(
    bytes: &[u8],
    provider: Arc<CryptoProvider>,
) -> Result<Arc<dyn rustls::server::danger::ClientCertVerifier>, String> {
    let mut roots = RootCertStore::empty();
    for (i, cert) in certificates(bytes)?.into_iter().enumerate() {
        roots
            .add(cert)
            .map_err(|error| format!("certificate {} does not parse: {error}", i + 1))?;
    }
    WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
        .build()
        .map_err(|error| format!("no client verifier: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcgen::{CertificateParams, KeyPair};

    /// A self-signed certificate for `localhost`, valid in the years `from..to`, and
    /// its key, PEM.
    fn leaf(from: i32, to: i32) -> (String, String) {
        let mut params = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        params.not_before = rcgen::date_time_ymd(from, 1, 1);
        params.not_after = rcgen::date_time_ymd(to, 1, 1);
        let key = KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    struct Dir(PathBuf);

    impl Dir {
        fn new(label: &str) -> Dir {
            let dir = std::env::temp_dir()
                .join(format!("climbot-tls-unit-{label}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Dir(dir)
        }

        fn files(&self, cert: &str, key: &str) -> TlsFiles {
            std::fs::write(self.0.join("cert.pem"), cert).unwrap();
            std::fs::write(self.0.join("key.pem"), key).unwrap();
            TlsFiles {
                cert: self.0.join("cert.pem"),
                key: self.0.join("key.pem"),
                client_ca: None,
                reload_interval: RELOAD_INTERVAL,
            }
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn at(year: i32) -> SystemTime {
        let seconds = rcgen::date_time_ymd(year, 1, 1).unix_timestamp();
        UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).unwrap())
    }

    #[test]
    fn the_validity_is_checked_at_the_time_given() {
        let dir = Dir::new("validity");
        let (cert, key) = leaf(2030, 2040);
        let files = dir.files(&cert, &key);
        let contents = Contents::read(&files).unwrap();
        assert!(matches!(
            build(&files, contents.clone(), at(2029)),
            Err(TlsError::NotYetValid { .. })
        ));
        assert!(matches!(
            build(&files, contents.clone(), at(2041)),
            Err(TlsError::Expired { .. })
        ));
        let loaded = build(&files, contents, at(2035)).unwrap();
        assert_eq!(
            loaded.not_after,
            rcgen::date_time_ymd(2040, 1, 1).unix_timestamp()
        );
        assert!(
            loaded.not_after_text.contains("2040"),
            "{}",
            loaded.not_after_text
        );
        assert_eq!(loaded.config.alpn_protocols, vec![b"h2".to_vec()]);
    }

    #[test]
    fn a_reload_takes_good_files_and_keeps_the_previous_ones_otherwise() {
        let dir = Dir::new("reload");
        let (cert, key) = leaf(2000, 2090);
        let files = dir.files(&cert, &key);
        let tls = Tls::load(files).unwrap();
        assert_eq!(tls.reload(), Ok(Reload::Unchanged));

        let (other_cert, other_key) = leaf(2000, 2091);
        dir.files(&other_cert, &key);
        assert!(matches!(tls.reload(), Err(TlsError::Mismatched { .. })));
        assert_eq!(
            tls.not_after(),
            rcgen::date_time_ymd(2090, 1, 1).unix_timestamp()
        );

        std::fs::remove_file(dir.0.join("key.pem")).unwrap();
        let missing = tls.reload().unwrap_err();
        assert!(matches!(
            missing,
            TlsError::Unreadable {
                file: TlsFile::Key,
                ..
            }
        ));
        assert!(missing.to_string().starts_with("--tls-key "), "{missing}");

        dir.files(&other_cert, &other_key);
        assert_eq!(tls.reload(), Ok(Reload::Reloaded));
        assert_eq!(
            tls.not_after(),
            rcgen::date_time_ymd(2091, 1, 1).unix_timestamp()
        );
        assert_eq!(tls.reload(), Ok(Reload::Unchanged));
    }

    #[test]
    fn a_file_over_a_mebibyte_is_not_read_whole() {
        let dir = Dir::new("large");
        let (cert, key) = leaf(2000, 2090);
        let large = format!("{cert}{}", " ".repeat(MAX_FILE_BYTES as usize));
        let error = Tls::load(dir.files(&large, &key)).unwrap_err();
        assert!(
            matches!(
                error,
                TlsError::Unparsable {
                    file: TlsFile::Cert,
                    ..
                }
            ),
            "{error}"
        );
    }
}
