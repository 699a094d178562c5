#!/usr/bin/env python3
"""Cross-checks Soulstone's pairings with networkx.

For synthetic events of 16, 128, 1,024 and 8,192 players after five random
rounds with clubs, this pairs the next round with `soulstone pair`, builds the
identical weighted graph (every pair of players, weighted by the same four
cost terms folded lexicographically) and solves it with
networkx.max_weight_matching. The two optimal totals must be equal. Sizes that
networkx does not finish within the time limit are reported as such.

With --hard it checks issue 20's hard fields instead (two clubs 60/40, one
region of 30%, a group of six who all met, round 1 with initial points of 1
or 3, and no clubs), at 1,024 players and at --players if given.

Usage: python3 benches/networkx_check.py [path/to/soulstone] [--limit SECONDS] [--hard [--players N] [--rounds R]]
"""
import json
import multiprocessing
import subprocess
import sys
import time

SIZES = [16, 128, 1024, 8192]
SEED = 2026
# networkx needs the complete graph in memory as Python objects (about 1 kB an
# edge); beyond this many edges it cannot even be built on a 24 GiB machine,
# let alone solved by pure-Python O(n³) blossom within the time limit.
MAX_EDGES = 3_000_000


def pair_cost(a, b, seats, met, clubs, avoid_same_club):
    """The four cost terms of pairing a with b, as docs/pairing.md defines them."""
    (rank_a, points_a), (rank_b, points_b) = seats[a], seats[b]
    rematches = met.get((min(a, b), max(a, b)), 0)
    club_a, club_b = clubs.get(a), clubs.get(b)
    same_club = 1 if avoid_same_club and club_a and club_a == club_b else 0
    return (rematches, same_club, (points_a - points_b) ** 2, (rank_a - rank_b) ** 2)


def scalar(cost, unit):
    # Python integers are exact: each term outweighs everything below it.
    r, c, d, t = cost
    return ((r * unit + c) * unit + d) * unit + t


def networkx_total(graph_edges, queue):
    import networkx as nx

    g = nx.Graph()
    g.add_weighted_edges_from(graph_edges)
    started = time.perf_counter()
    matching = nx.max_weight_matching(g, maxcardinality=True)
    queue.put((time.perf_counter() - started, [tuple(sorted(p)) for p in matching]))


def main():
    binary = next((a for a in sys.argv[1:] if not a.startswith("--")), "target/release/soulstone")
    limit = 600.0
    if "--limit" in sys.argv:
        limit = float(sys.argv[sys.argv.index("--limit") + 1])
    fields = [(players, "clubs", 5) for players in SIZES]
    if "--hard" in sys.argv:
        players = 1024
        if "--players" in sys.argv:
            players = int(sys.argv[sys.argv.index("--players") + 1])
        rounds = 5
        if "--rounds" in sys.argv:
            rounds = int(sys.argv[sys.argv.index("--rounds") + 1])
        fields = [(players, shape, rounds) for shape in ["no-clubs", "two-clubs", "one-region", "met-group"]]
        if rounds == 5:
            fields.append((players, "uneven-initial-points", 0))
    rows = []
    for players, shape, rounds in fields:
        print(f"{players} players, {shape}, after {rounds} rounds:", flush=True)
        snapshot_text = subprocess.run(
            [binary, "synthetic-snapshot", "--players", str(players), "--rounds", str(rounds),
             "--seed", str(SEED), "--shape", shape],
            check=True, capture_output=True, text=True).stdout
        with open(f"/tmp/soulstone-snapshot-{players}.json", "w") as f:
            f.write(snapshot_text)
        snapshot = json.loads(snapshot_text)
        started = time.perf_counter()
        out = subprocess.run([binary, "pair", f"/tmp/soulstone-snapshot-{players}.json"],
                             check=True, capture_output=True, text=True).stdout
        soulstone_seconds = time.perf_counter() - started
        pairing = json.loads(out)
        print(f"  soulstone: {pairing['method']}, proven {pairing['proven_optimal']}", flush=True)

        seats = {entry["player"]: (rank, entry["points"]) for rank, entry in enumerate(pairing["order"])}
        clubs = {p["id"]: (p.get("club") or "").strip().lower() or None for p in snapshot["players"]}
        met = {}
        for rnd in snapshot["rounds"]:
            for g in rnd["games"]:
                if g.get("b") is not None:
                    key = (min(g["a"], g["b"]), max(g["a"], g["b"]))
                    met[key] = met.get(key, 0) + 1
        avoid = snapshot["settings"].get("avoid_same_club", False)
        ids = sorted(seats)
        edge_count = len(ids) * (len(ids) - 1) // 2
        if edge_count > MAX_EDGES:
            rows.append((players, soulstone_seconds, None, tuple(pairing["cost"].values()), None))
            print(f"{players:5d} players: soulstone {soulstone_seconds * 1000:.1f} ms (whole command), terms "
                  f"{tuple(pairing['cost'].values())}; networkx not attempted: {edge_count:,} edges", flush=True)
            continue
        costs = {}
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                costs[(a, b)] = pair_cost(a, b, seats, met, clubs, avoid)
        unit = 1 + max(max(c) for c in costs.values()) * len(ids)
        big = 1 + max(scalar(c, unit) for c in costs.values())
        ours = sum(scalar(costs[(min(p["a"], p["b"]), max(p["a"], p["b"]))], unit) for p in pairing["pairs"])
        ours_terms = tuple(map(sum, zip(*(costs[(min(p["a"], p["b"]), max(p["a"], p["b"]))] for p in pairing["pairs"]))))
        edges = [(a, b, big - scalar(c, unit)) for (a, b), c in costs.items()]

        queue = multiprocessing.Queue()
        worker = multiprocessing.Process(target=networkx_total, args=(edges, queue))
        worker.start()
        worker.join(limit)
        if worker.is_alive():
            worker.terminate()
            rows.append((players, soulstone_seconds, None, ours_terms, None))
            print(f"{players:5d} players: soulstone {soulstone_seconds * 1000:.1f} ms, terms {ours_terms}; networkx did not finish within {limit:.0f} s", flush=True)
            continue
        nx_seconds, matching = queue.get()
        theirs = sum(scalar(costs[p], unit) for p in matching)
        theirs_terms = tuple(map(sum, zip(*(costs[p] for p in matching))))
        equal = ours == theirs
        rows.append((players, soulstone_seconds, nx_seconds, ours_terms, theirs_terms))
        print(f"{players:5d} players: soulstone {soulstone_seconds * 1000:.1f} ms (whole command), "
              f"networkx {nx_seconds:.2f} s, ratio {nx_seconds / soulstone_seconds:.0f}x, "
              f"terms {ours_terms} vs {theirs_terms}: {'EQUAL' if equal else 'DIFFERENT'}", flush=True)
        if not equal:
            sys.exit(f"optimal totals differ for {players} players")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
