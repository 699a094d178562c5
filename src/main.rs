use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    soulstone::cli::run(soulstone::cli::Cli::parse())
}
