//! shootout-load's integration tests, one module per subject, in one test binary: each test binary is
//! linked with thin LTO against the crate and all its dependencies, so after a change to the library
//! `cargo test --release --no-run` took 331 s with nine of them and takes 125 s with one (2 CPUs, quiet).

mod support;

mod connect;
mod cpulink;
mod hostile;
mod io;
mod load;
mod malformed;
mod parser_fuzz;
mod transport;
mod window;
