//! TLS for the tests: certificate authorities and certificates made at run time (rcgen;
//! no key is stored in the repository), their files, and clients (tonic's and a bare
//! rustls one that reports how the handshake went).

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

/// A certificate authority.
pub struct Ca {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A certificate and its key, PEM.
#[derive(Clone)]
pub struct Leaf {
    pub cert: String,
    pub key: String,
}

/// A certificate's validity: from `not_before` to `not_after`, `(year, month, day)`.
pub type Validity = ((i32, u8, u8), (i32, u8, u8));

/// Valid from 2000 to 2090.
pub const VALID: Validity = ((2000, 1, 1), (2090, 1, 1));
/// Expired in 2001.
pub const EXPIRED: Validity = ((2000, 1, 1), (2001, 1, 1));
/// Valid from 2990 on.
pub const NOT_YET_VALID: Validity = ((2990, 1, 1), (2999, 1, 1));

impl Ca {
    pub fn new(name: &str) -> Ca {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        Ca { issuer }
    }

    /// The CA's certificate, PEM.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A server certificate for `localhost` and 127.0.0.1.
    pub fn server(&self, validity: Validity) -> Leaf {
        self.leaf(
            "climbot test server",
            &["localhost", "127.0.0.1"],
            ExtendedKeyUsagePurpose::ServerAuth,
            validity,
        )
    }

    /// A client certificate.
    pub fn client(&self, name: &str, validity: Validity) -> Leaf {
        self.leaf(name, &[], ExtendedKeyUsagePurpose::ClientAuth, validity)
    }

    fn leaf(
        &self,
        name: &str,
        names: &[&str],
        usage: ExtendedKeyUsagePurpose,
        ((y0, m0, d0), (y1, m1, d1)): Validity,
    ) -> Leaf {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = CertificateParams::new(names).unwrap();
        params.distinguished_name.push(DnType::CommonName, name);
        params.extended_key_usages = vec![usage];
        params.not_before = rcgen::date_time_ymd(y0, m0, d0);
        params.not_after = rcgen::date_time_ymd(y1, m1, d1);
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        Leaf {
            cert: cert.pem(),
            key: key.serialize_pem(),
        }
    }
}

impl Leaf {
    /// The certificate, DER.
    pub fn der(&self) -> CertificateDer<'static> {
        CertificateDer::from_pem_slice(self.cert.as_bytes()).unwrap()
    }
}

/// A directory of its own under the system's temporary directory, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "climbot-{label}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `contents` to the file `name` in the directory; returns its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// tonic's TLS settings trusting `ca`, with `identity` as the client's certificate.
pub fn client_tls(ca: &Ca, identity: Option<&Leaf>) -> ClientTlsConfig {
    let config = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(ca.pem()))
        .domain_name("localhost");
    match identity {
        Some(leaf) => config.identity(Identity::from_pem(&leaf.cert, &leaf.key)),
        None => config,
    }
}

/// A tonic channel over TLS to `addr`.
pub async fn tls_channel(addr: SocketAddr, tls: ClientTlsConfig) -> Result<Channel, String> {
    Channel::from_shared(format!("https://{addr}"))
        .unwrap()
        .tls_config(tls)
        .map_err(|e| format!("{e:?}"))?
        .connect_timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| format!("{e:?}"))
}

/// A bare rustls client trusting `ca`, presenting `identity`, offering `h2`.
pub fn rustls_client(ca: &Ca, identity: Option<&Leaf>) -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_slice(ca.pem().as_bytes()).unwrap())
        .unwrap();
    let builder = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_root_certificates(roots);
    let mut config = match identity {
        Some(leaf) => builder
            .with_client_auth_cert(
                vec![leaf.der()],
                PrivateKeyDer::from_pem_slice(leaf.key.as_bytes()).unwrap(),
            )
            .unwrap(),
        None => builder.with_no_client_auth(),
    };
    config.alpn_protocols = vec![b"h2".to_vec()];
    Arc::new(config)
}

/// A TLS connection to `addr` through which the server answered HTTP/2: its
/// certificate chain. Err: how the handshake or the first exchange failed (for TLS 1.3,
/// the server's refusal of a client certificate arrives after the client's side of the
/// handshake, as an alert on the first read).
pub async fn probe(
    addr: SocketAddr,
    client: Arc<rustls::ClientConfig>,
) -> Result<Vec<CertificateDer<'static>>, String> {
    let tcp = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let exchange = async {
        let mut tls = TlsConnector::from(client)
            .connect(ServerName::try_from("localhost").unwrap(), tcp)
            .await
            .map_err(|e| format!("handshake: {e}"))?;
        let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
        if alpn.as_deref() != Some(b"h2".as_slice()) {
            return Err(format!("ALPN {alpn:?}, not h2"));
        }
        let chain = tls
            .get_ref()
            .1
            .peer_certificates()
            .unwrap_or_default()
            .to_vec();
        // The HTTP/2 preface and an empty SETTINGS frame; the server answers SETTINGS.
        let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
        hello.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]);
        tls.write_all(&hello)
            .await
            .map_err(|e| format!("write: {e}"))?;
        tls.flush().await.map_err(|e| format!("write: {e}"))?;
        let mut head = [0u8; 9];
        tls.read_exact(&mut head)
            .await
            .map_err(|e| format!("read: {e}"))?;
        if head[3] != 4 {
            return Err(format!(
                "the first frame is of type {}, not SETTINGS",
                head[3]
            ));
        }
        Ok(chain)
    };
    tokio::time::timeout(Duration::from_secs(10), exchange)
        .await
        .map_err(|_| "no answer within 10 s".to_string())?
}

/// Writes `server`'s certificate and key (and `client_ca`'s certificate) to `dir` as
/// `cert.pem`, `key.pem` (and `client-ca.pem`): the files a server reads every 100 ms.
pub fn files(dir: &TempDir, server: &Leaf, client_ca: Option<&Ca>) -> climbot::service::TlsFiles {
    climbot::service::TlsFiles {
        cert: dir.write("cert.pem", &server.cert),
        key: dir.write("key.pem", &server.key),
        client_ca: client_ca.map(|ca| dir.write("client-ca.pem", &ca.pem())),
        reload_interval: Duration::from_millis(100),
    }
}

/// The test configuration with TLS from `files`.
pub fn tls_config(files: climbot::service::TlsFiles) -> climbot::service::Config {
    climbot::service::Config {
        tls: Some(climbot::service::Tls::load(files).unwrap()),
        ..super::test_config()
    }
}
