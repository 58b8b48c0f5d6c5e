#!/usr/bin/env python3
"""Counts the instructions our decoder executes on a fixed set of stickers and compares them
with the counts checked in, failing on a rise: a slowdown guard that does not depend on the
machine's speed or load.

    scripts/instruction-guard.py [--stickers BINARY] [--thresholds FILE] [--only NAME] [--update]

For each file, `stickers bench --ours-only FILE --repeat N` runs under
`valgrind --tool=cachegrind --cache-sim=no` twice, with N = 1 and N = 1 + DECODES; the
difference is DECODES decodes of that file alone (start-up, reading and parsing cancel out).
The binary is a stripped copy (valgrind cannot read this toolchain's debug information), run
with SWIFT_DETERMINISTIC_HASHING=1 so that hashing, and every count, is the same from run to
run. A file whose count rises more than the tolerance over Benchmarks/Thresholds/
instructions.json fails the guard; one that falls by more is reported, so the file can be
updated (--update writes the counts measured). Counts depend on the instruction set the
libraries choose at run time (libdeflate picks its inflate by the CPU's features), so the file
keeps one set of counts for each set of features it was recorded on; --update replaces only
this CPU's. On a CPU whose features have no counts recorded, the counts are reported, not
compared.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = [
    "corpus/sample-pack/01-bouncing-blob.png",
    "corpus/sample-pack/02-spinning-star.gif",
    "corpus/sample-pack/03-beating-heart.png",
    "corpus/sample-pack/04-party-popper.gif",
    "corpus/sample-pack/05-still-blob.png",
]
DECODES = 2
TOLERANCE = 0.02
FEATURES = ["sse4_2", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl"]


def cpu_features():
    """The CPU features that choose library code paths, as a string ("sse4_2 avx avx2 ...")."""
    try:
        flags = next(line for line in open("/proc/cpuinfo") if line.startswith("flags")).split(":")[1].split()
    except (OSError, StopIteration):
        return "unknown"
    return " ".join(f for f in FEATURES if f in flags)


def recorded_counts(path):
    """The counts recorded, by CPU features ({"sse4_2 avx ...": {"file.png": count, ...}, ...}),
    and the tolerance."""
    if not os.path.exists(path):
        return {}, TOLERANCE
    recorded = json.load(open(path))
    return recorded.get("instructionsPerDecodeByCPUFeatures", {}), recorded.get("tolerance", TOLERANCE)


def instructions(binary, path, repeats, scratch):
    """Instructions executed by `binary bench --ours-only PATH --repeat REPEATS`."""
    out = os.path.join(scratch, "cachegrind.out")
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    run = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
         binary, "bench", "--ours-only", path, "--repeat", str(repeats)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        sys.exit(f"instruction-guard: {path}: exit {run.returncode}: {run.stderr[-2000:]}")
    summary = re.search(r"^summary:\s+(\d+)", open(out).read(), re.MULTILINE)
    if not summary:
        sys.exit(f"instruction-guard: {path}: no summary in cachegrind's output")
    return int(summary.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stickers", default=os.path.join(ROOT, ".build/release/stickers"))
    parser.add_argument("--thresholds", default=os.path.join(ROOT, "Benchmarks/Thresholds/instructions.json"))
    parser.add_argument("--only", action="append", help="count only this file of the set (by name; repeatable)")
    parser.add_argument("--update", action="store_true", help="write the counts measured")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("instruction-guard: valgrind is not installed (make test installs it)")
    if not os.access(args.stickers, os.X_OK):
        sys.exit(f"instruction-guard: {args.stickers}: no such executable (make release-build)")
    features = cpu_features()
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "stickers")
        subprocess.run(["strip", "-o", stripped, args.stickers], check=True)
        counts = {}
        for path in FILES:
            if args.only and os.path.basename(path) not in args.only:
                continue
            once = instructions(stripped, path, 1, scratch)
            more = instructions(stripped, path, 1 + DECODES, scratch)
            counts[os.path.basename(path)] = (more - once) // DECODES
    recorded, tolerance = recorded_counts(args.thresholds)
    if args.update:
        recorded[features] = counts
        with open(args.thresholds, "w") as out:
            json.dump({"tolerance": tolerance, "instructionsPerDecodeByCPUFeatures": recorded},
                      out, indent=2, sort_keys=True)
            out.write("\n")
        print(f"instruction-guard: wrote {os.path.relpath(args.thresholds, ROOT)} for [{features}]")
        return
    same_cpu = features in recorded
    # Elsewhere, the counts of the features recorded most alike this CPU's, to report against.
    closest = features if same_cpu else max(
        recorded, key=lambda f: len(set(f.split()) & set(features.split())), default=None)
    failures = []
    print(f"instruction-guard: instructions per decode, one thread (tolerance {tolerance:.0%})")
    for name, count in counts.items():
        before = recorded.get(closest, {}).get(name)
        if before is None:
            print(f"  {name:28} {count:>13,}  (not recorded)")
            continue
        change = count / before - 1
        verdict = "ok"
        if not same_cpu:
            verdict = f"against [{closest}]"
        elif change > tolerance:
            verdict = "ROSE"
            failures.append(name)
        elif change < -tolerance:
            verdict = "fell: update the thresholds (--update)"
        print(f"  {name:28} {count:>13,}  recorded {before:>13,}  {change:+.2%}  {verdict}")
    if not same_cpu:
        print(f"instruction-guard: no counts recorded for this CPU's features [{features}] "
              f"(recorded: {'; '.join(f'[{f}]' for f in sorted(recorded)) or 'none'}): reported, not compared "
              f"(make instruction-counts records them)")
        return
    if failures:
        sys.exit(f"instruction-guard: more instructions than recorded for {', '.join(failures)}")


if __name__ == "__main__":
    main()
