//! The wire types of `proto/climbot/v1/*.proto` (package `climbot.v1`), generated at build
//! time by `build.rs`, plus the encoded descriptor set served by reflection.
#![allow(missing_docs, clippy::all, clippy::pedantic)]

tonic::include_proto!("climbot.v1");

/// The encoded `FileDescriptorSet` of the climbot protos, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("climbot_descriptor");
