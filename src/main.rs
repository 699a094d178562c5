use std::process::ExitCode;

use clap::Parser;

// The server decides every command of its hosted games on copies of the game
// state, which allocate and free many small blocks; mimalloc does that in
// about half the instructions of the system allocator (docs/benchmarks.md).
// Built without transparent huge pages (the `no_thp` feature): with them
// each thread's heap was backed by 2 MiB pages, and 3,000 idle live
// streams cost 160-170 MiB instead of about 100, for no speed the bots'
// searches could measure.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    soulstone::cli::run(soulstone::cli::Cli::parse())
}
