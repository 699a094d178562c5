#!/usr/bin/env python3
"""What `PRAGMA synchronous = FULL` costs a write, against NORMAL (issue 18).

    python3 benches/sqlite_sync.py [commits]

Opens a SQLite database in WAL mode, as the server does, in a temporary
directory on the same disk as the working tree, and times small write
transactions (one row each, the size of a result submission) under each
setting. FULL syncs the WAL at every commit, so an acknowledged write
survives a power cut; NORMAL syncs only at checkpoints. Results are in
docs/benchmarks.md.
"""
import os
import sqlite3
import statistics
import sys
import tempfile
import time

COMMITS = int(sys.argv[1]) if len(sys.argv) > 1 else 2000


def run(mode: str) -> list[float]:
    with tempfile.TemporaryDirectory(dir=os.getcwd()) as work:
        db = sqlite3.connect(os.path.join(work, "sync.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(f"PRAGMA synchronous = {mode}")
        db.execute("CREATE TABLE results (id INTEGER PRIMARY KEY, game INTEGER, a INTEGER, b INTEGER, note TEXT)")
        times = []
        for i in range(COMMITS):
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO results (game, a, b, note) VALUES (?, ?, ?, ?)", (i, 5, 3, "x" * 64))
            db.execute("COMMIT")
            times.append(time.perf_counter() - start)
        db.close()
        return times


for mode in ("NORMAL", "FULL"):
    times = run(mode)
    ms = [t * 1000 for t in times]
    print(
        f"{mode:6} {COMMITS} commits: {sum(times):.2f} s, "
        f"median {statistics.median(ms):.3f} ms, p99 {sorted(ms)[int(len(ms) * 0.99)]:.3f} ms, "
        f"{COMMITS / sum(times):.0f} commits/s"
    )
