#!/usr/bin/env python3
"""Turns the raw output of run_probe_bench.sh (Google Benchmark JSON, "key value" lines,
profile summaries) into the tables of docs/PERFORMANCE.md. Pair costs are medians over
the repetitions; ratios divide a probe benchmark by the reference measured in the same
process."""
import json
import statistics
import sys
from pathlib import Path

PAIR_BENCHES = [("BM_Flat", "flat, one probe"), ("BM_Nested3", "nested 3 deep, per pair"),
                ("BM_Siblings100", "100 siblings, per pair"),
                ("BM_ScopeMacro", "IDB_SCOPE macro (C++)")]
GRAINS = (2000, 400, 50, 44, 35, 10, 2)
GOAL_RATIO, GOAL_OFF_NS, GOAL_ACCURACY_PCT = 1.25, 2.0, 1.0
# The accuracy goal holds for calls of this many ns and longer; finer grains are shown.
GOAL_ACCURACY_FROM_NS = 250.0


def load_json(path):
    return json.loads(path.read_text())


def per_pair_ns(data, name):
    """Median over repetitions of the time per start/stop pair, in ns."""
    runs = [b for b in data["benchmarks"]
            if b.get("run_type") == "iteration" and b["run_name"] == name]
    if not runs:
        raise SystemExit(f"no runs of {name}")
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[runs[0]["time_unit"]]
    return statistics.median(b["real_time"] * scale / b["pairs"] for b in runs)


def verdict(ok):
    return "met" if ok else "MISSED"


def pair_table(out):
    print("\n## 1. Start/stop pair, IDB_CPU=auto (default), IDB_THROTTLE=0, median of 5 "
          "repetitions")
    print(f"{'library':8} {'benchmark':26} {'pair ns':>8} {'ref ns':>7} {'ratio':>6}  goal <= "
          f"{GOAL_RATIO}x")
    for lib in ("shared", "static"):
        data = load_json(out / f"pair-{lib}-auto.out")
        ref = per_pair_ns(data, "BM_Reference")
        for bench, label in PAIR_BENCHES:
            ns = per_pair_ns(data, bench)
            print(f"{lib:8} {label:26} {ns:8.2f} {ref:7.2f} {ns / ref:6.2f}  "
                  f"{verdict(ns / ref <= GOAL_RATIO)}")
        print(f"{lib:8} {'(reference parts: 2 TSC reads':30} "
              f"{per_pair_ns(data, 'BM_TwoTscReads'):5.2f} ns, stats_add alone "
              f"{per_pair_ns(data, 'BM_StatsAddOnly'):.2f} ns)")


def throttled_table(out):
    print("\n## 1b. Pair of a throttled node (IDB_THROTTLE_AFTER=1: counted, not timed), "
          "median of 5 repetitions, against the same reference")
    print(f"{'library':8} {'benchmark':26} {'pair ns':>8} {'ref ns':>7} {'ratio':>6}")
    for lib in ("shared", "static"):
        data = load_json(out / f"pair-{lib}-throttled.out")
        ref = per_pair_ns(data, "BM_Reference")
        for bench, label in PAIR_BENCHES:
            ns = per_pair_ns(data, bench)
            print(f"{lib:8} {label:26} {ns:8.2f} {ref:7.2f} {ns / ref:6.2f}")
    summary = load_json(out / "pair-shared-throttled.profile.json")
    flat = node_of(summary, 1)
    print(f"  flat node: {flat['count']} timed, {flat['throttled']} throttled")


def disabled_table(out):
    print("\n## 2. Probes switched off (IDB_ENABLE=0), ns per start/stop pair")
    print(f"{'library':8} {'benchmark':26} {'pair ns':>8}  goal <= {GOAL_OFF_NS} ns")
    for lib in ("shared", "static"):
        data = load_json(out / f"pair-{lib}-disabled.out")
        for bench, label in PAIR_BENCHES:
            ns = per_pair_ns(data, bench)
            print(f"{lib:8} {label:26} {ns:8.2f}  {verdict(ns <= GOAL_OFF_NS)}")
        print(f"{lib:8} {'(floor: two empty calls)':26} "
              f"{per_pair_ns(data, 'BM_TwoEmptyCalls'):8.2f}")


def node_of(summary, probe):
    return next((n for n in summary["nodes"] if n["probe"] == probe), None)


def policy_table(out):
    print("\n## 3. CPU-time policies (shared library)")
    print("short activations (empty body, BM_Flat), ns per pair; CPU-timed = activations "
          "with CPU time / all")
    for policy in ("off", "all", "auto"):
        data = load_json(out / f"pair-shared-{policy}.out")
        node = node_of(load_json(out / f"pair-shared-{policy}.profile.json"), 1)
        print(f"  IDB_CPU={policy:4} {per_pair_ns(data, 'BM_Flat'):9.1f} ns   CPU-timed "
              f"{node['cpu_count']}/{node['count']}")
    print("long activations (~300 us body): extra wall time per activation, probed - bare")
    for policy in ("off", "all", "auto"):
        bench = load_json(out / f"long-{policy}.out")["benchmarks"][0]
        node = node_of(load_json(out / f"long-{policy}.profile.json"), 40)
        print(f"  IDB_CPU={policy:4} {bench['extra_ns']:6.0f} ns "
              f"+- {bench['extra_ns_spread']:3.0f} "
              f"(paired median {bench['extra_ns_paired_median']:6.0f}), "
              f"{bench['extra_pct']:6.3f} % of the {bench['body_ns'] / 1e3:.0f} us body, "
              f"CPU-timed {node['cpu_count']}/{node['count']}")


def node_bytes_table(out):
    kv = {}
    for line in (out / "node-bytes.out").read_text().splitlines():
        key, value = line.split()
        kv[key] = float(value)
    print("\n## 4. Bytes per node")
    print(f"  in memory: sizeof(idb::rt::Node) {kv['node_sizeof']:.0f} B + hash slots "
          f"({kv['slot_sizeof']:.0f} B each, 2-4 per node): "
          f"{2 * kv['slot_sizeof']:.0f}-{4 * kv['slot_sizeof']:.0f} B; "
          f"at 10,000 nodes {kv['slots_at_10000']:.0f} slots = "
          f"{kv['slot_bytes_per_node_at_10000']:.1f} B/node, total "
          f"{kv['node_sizeof'] + kv['slot_bytes_per_node_at_10000']:.1f} B/node")
    print(f"  measured resident-set growth creating 10,000 nodes: "
          f"{kv['rss_growth_per_node_at_10000']:.1f} B/node")
    print(f"  in the file: IDB_NODE_RECORD_SIZE {kv['file_record_size']:.0f} B; measured "
          f"({kv['file_bytes_tree_10000']:.0f} - {kv['file_bytes_tree_10']:.0f}) / 9,990 = "
          f"{kv['file_bytes_per_node']:.2f} B/node")
    print(f"  with one new probe per node (probe-table entry too): "
          f"{kv['file_bytes_per_node_and_probe']:.2f} B/node in the file, "
          f"{kv['rss_growth_per_node_and_probe_at_10000']:.1f} B/node resident")


def read_kv(path):
    kv = {}
    for line in path.read_text().splitlines():
        key, value = line.split(None, 1)
        kv[key] = value
    return kv


def accuracy_runs(out, grain):
    """Per build: the 5 kernel times; the 5 corrected root times; the set of checksums;
    the last profile summary."""
    times = {"pristine": [], "instrumented": [], "timed": [], "off": []}
    corrected, sums, summary = {"instrumented": [], "timed": []}, set(), {}
    for i in range(1, 6):
        for build in times:
            kv = read_kv(out / f"accuracy-{grain}-{build}-{i}.out")
            times[build].append(float(kv["kernel_s"]))
            sums.add(kv["checksum"])
        for build in corrected:
            summary[build] = load_json(out / f"accuracy-{grain}-{build}-{i}.profile.json")
            corrected[build].append(summary[build]["root_corrected_s"])
    return times, corrected, sums, summary


def accuracy_table(out):
    print("\n## 5. Accuracy, best of 5 processes per build; corrected = root corrected time "
          "(min of 5)")
    print("grain: inner iterations per call; ns/call: pristine time / calls; relax, flux: node "
          "means (timed activations); off: instrumented build with IDB_ENABLE=0; instr: with "
          "the default throttling, timed: IDB_THROTTLE=0; cost/act: (instr - pristine) / "
          "activations; thr: activations throttled / all")
    print(f"{'grain':>5} {'ns/call':>8} {'relax ns':>9} {'flux ns':>8} {'activations':>11} "
          f"{'pristine s':>10} {'off s':>7} {'run':>6} {'s':>8} {'/pr':>6} {'cost/act':>8} "
          f"{'thr':>5} {'corrected':>9} {'error':>8}  checksums  goal |error| <= "
          f"{GOAL_ACCURACY_PCT} % from {GOAL_ACCURACY_FROM_NS:.0f} ns/call")
    for grain in GRAINS:
        times, corrected, sums, summary = accuracy_runs(out, grain)
        best, off = min(times["pristine"]), min(times["off"])
        for build in ("instrumented", "timed"):
            nodes = summary[build]["nodes"][1:]
            activations = sum(n["count"] + n["throttled"] for n in nodes)
            throttled = sum(n["throttled"] for n in nodes)
            relax, flux = node_of(summary[build], 11), node_of(summary[build], 12)
            run, corr = min(times[build]), min(corrected[build])
            err = 100.0 * (corr - best) / best
            per_call = best * 1e9 / (relax["count"] + relax["throttled"] + flux["count"] +
                                     flux["throttled"])
            cost = (run - best) * 1e9 / activations
            print(f"{grain:5d} {per_call:8.1f} {relax['mean_s'] * 1e9:9.1f} "
                  f"{flux['mean_s'] * 1e9:8.1f} {activations:11d} {best:10.4f} {off:7.4f} "
                  f"{'instr' if build == 'instrumented' else 'timed':>6} {run:8.4f} "
                  f"{run / best:6.3f} {cost:8.1f} {throttled / activations:5.2f} {corr:9.4f} "
                  f"{err:+7.2f}%  {'same' if len(sums) == 1 else 'DIFFER':9}  "
                  f"{verdict(abs(err) <= GOAL_ACCURACY_PCT) if per_call >= GOAL_ACCURACY_FROM_NS else '-'}")
    profile = load_json(out / "accuracy-400-instrumented-1.profile.json")
    print(f"  calibrated noise charged per activation: "
          f"{profile['noise_per_activation_s'] * 1e9:.1f} ns timed, "
          f"{profile['throttled_noise_per_activation_s'] * 1e9:.1f} ns throttled")


def main():
    out = Path(sys.argv[1])
    print("# IDB probe runtime benchmarks")
    print((out / "machine.txt").read_text().rstrip())
    pair_table(out)
    throttled_table(out)
    disabled_table(out)
    policy_table(out)
    node_bytes_table(out)
    accuracy_table(out)


if __name__ == "__main__":
    main()
