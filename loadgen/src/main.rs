use std::process::ExitCode;

use clap::Parser;
use shootout_load::cli::Args;

fn main() -> ExitCode {
    let config = match Args::parse().into_config() {
        Ok(config) => config,
        Err(message) => {
            eprintln!("shootout-load: {message}");
            return ExitCode::from(2);
        }
    };
    let json = config.json;
    match shootout_load::run(config) {
        Ok(report) => {
            eprint!("{}", report.summary());
            if json {
                println!("{}", report.to_json());
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("shootout-load: {message}");
            ExitCode::from(1)
        }
    }
}
