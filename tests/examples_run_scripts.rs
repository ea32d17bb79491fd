//! The example clients' `run.sh` scripts build nothing: given a `CLIMBOT_BIN` that is
//! not there, each stops at once with a message that names the path and says what to
//! do, before it generates code or starts a server.

use std::path::Path;
use std::process::Command;

#[test]
fn each_run_script_stops_without_a_binary_and_says_what_to_do() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let missing = std::env::temp_dir().join(format!("no-climbot-{}", std::process::id()));
    for example in ["python", "go", "node"] {
        let script = root.join("examples").join(example).join("run.sh");
        let started = std::time::Instant::now();
        let out = Command::new("bash")
            .arg(&script)
            .env("CLIMBOT_BIN", &missing)
            .output()
            .expect("bash runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{example}: {stderr}");
        assert!(
            stderr.contains(&missing.display().to_string()) && stderr.contains("CLIMBOT_BIN"),
            "{example}: {stderr}"
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{example}: it did work before stopping"
        );
        assert!(
            !missing.exists(),
            "{example}: something was built at {missing:?}"
        );
    }
}
