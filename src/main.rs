use std::process::ExitCode;

use clap::Parser;

// The server decides every command of its hosted games on copies of the game
// state, which allocate and free many small blocks; mimalloc does that in
// about half the instructions of the system allocator (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    soulstone::cli::run(soulstone::cli::Cli::parse())
}
