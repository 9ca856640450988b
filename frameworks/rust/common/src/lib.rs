//! The code every Rust implementation shares (see README.md): the harness's environment, and the
//! framework-independent half of the workloads, TechEmpower's four database types and crud's items included.

pub mod crud;
pub mod env;
pub mod runtime;
pub mod techempower;
pub mod workloads;
