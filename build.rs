//! Compiles `proto/climbot/v1/*.proto` with protox (pure Rust; no system `protoc`) and
//! writes the encoded descriptor set used by server reflection.

use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut compiler = protox::Compiler::new(["proto"])?;
    compiler.include_imports(true).include_source_info(true);
    compiler.open_files(["climbot/v1/bot.proto"])?;
    // compile_fds ignores file_descriptor_set_path, so the reflection bytes are written here.
    let out = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(
        out.join("climbot_descriptor.bin"),
        compiler.encode_file_descriptor_set(),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        .compile_fds(compiler.file_descriptor_set())?;
    for file in compiler.files() {
        if let Some(path) = file.path() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    println!("cargo:rerun-if-changed=proto");
    Ok(())
}
