//! Generates the Bench service's server code from proto/bench.proto at build time (tonic-prost-build), into
//! OUT_DIR: the generated code is never committed, and a change to the proto rebuilds it.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // prost-build runs the protoc named by PROTOC: the crates.io one, not whatever is on PATH.
    std::env::set_var("PROTOC", protoc_bin_vendored::protoc_bin_path()?);
    tonic_prost_build::configure()
        .build_client(false)
        .compile_protos(&["../../../proto/bench.proto"], &["../../../proto"])?;
    Ok(())
}
