//! `climbot proto descriptor`: the encoded `FileDescriptorSet` of the API, for tools
//! that cannot use server reflection (grpcurl `-protoset`, ghz `--protoset`, Envoy's
//! gRPC-JSON transcoder, Postman, code generators that read descriptors).

use super::WriteError;
use crate::pb;
use std::io::Write;
use std::path::PathBuf;

/// Flags of `climbot proto descriptor`.
#[derive(clap::Args, Debug)]
pub struct DescriptorArgs {
    /// Where to write the descriptor set; `-` writes it to standard output.
    #[arg(long, default_value = "climbot.binpb")]
    pub out: PathBuf,
}

/// Writes the descriptor set compiled into the binary: every file of
/// `proto/climbot/v1/` with its comments (source info), as served by reflection.
pub fn descriptor(args: &DescriptorArgs) -> Result<(), WriteError> {
    if args.out.as_os_str() == "-" {
        return std::io::stdout()
            .write_all(pb::FILE_DESCRIPTOR_SET)
            .map_err(|e| WriteError {
                target: "standard output".to_string(),
                reason: e.to_string(),
            });
    }
    std::fs::write(&args.out, pb::FILE_DESCRIPTOR_SET).map_err(|e| WriteError {
        target: args.out.display().to_string(),
        reason: e.to_string(),
    })?;
    crate::errln!(
        "wrote {} ({} bytes): the FileDescriptorSet of climbot.v1",
        args.out.display(),
        pb::FILE_DESCRIPTOR_SET.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost_reflect::DescriptorPool;

    #[test]
    fn the_descriptor_set_is_the_whole_api_with_its_comments() {
        let dir = std::env::temp_dir().join(format!("climbot-descriptor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("climbot.binpb");
        descriptor(&DescriptorArgs { out: out.clone() }).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let pool = DescriptorPool::decode(bytes.as_slice()).unwrap();
        let service = pool.get_service_by_name("climbot.v1.BotService").unwrap();
        let methods: Vec<_> = service.methods().map(|m| m.name().to_string()).collect();
        assert_eq!(methods, ["SelectPlay", "ListLegalPlays", "AnalyzePlay"]);
        for file in ["bot", "lexio", "dalmuti", "daifugo"] {
            let name = format!("climbot/v1/{file}.proto");
            let file = pool.get_file_by_name(&name).unwrap();
            let options = file.file_descriptor_proto().options.clone().unwrap();
            assert_eq!(
                options.go_package(),
                "climbot/gen/go/climbot/v1;climbotv1",
                "{name}"
            );
        }
        // The comments travel with it (source info), for tools that show them.
        let lexio = pool.get_file_by_name("climbot/v1/lexio.proto").unwrap();
        let info = lexio
            .file_descriptor_proto()
            .source_code_info
            .clone()
            .unwrap();
        assert!(
            info.location
                .iter()
                .any(|l| l.leading_comments().contains("the seat that made the play"))
        );
    }
}
