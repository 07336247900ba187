#!/usr/bin/env python3
"""Tests of the benchmark plots (bench/plot/make_plots.py), of the sample
runs they are drawn from, of bench/peers.py (with stand-in libraries) and of
bench/round_trips.h (through tests/bench_plot/round_trips_sample.cpp).

  python3 tests/bench_plot/test_plots.py [TestClass ...]

DCPLOT_ROUND_TRIPS_SAMPLE names the built round_trips_sample program (CTest
sets it). Every plot is checked as SVG (xml.etree), for the series labels it
must carry and for the device, date and commit in its caption; each planted
mistake must stop the script with a message naming the problem, and no plot.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PLOT_DIR = os.path.join(ROOT, "bench", "plot")
MAKE_PLOTS = os.path.join(PLOT_DIR, "make_plots.py")
PEERS = os.path.join(ROOT, "bench", "peers.py")
REAL_SAMPLE = os.path.join(PLOT_DIR, "sample", "h100-2026-11-24")
SYNTHETIC_SAMPLE = os.path.join(PLOT_DIR, "sample", "synthetic")
REAL_RESULTS = os.path.join(ROOT, "bench", "results", "2026-11-24-h100")
SVG = "{http://www.w3.org/2000/svg}"

sys.path.insert(0, PLOT_DIR)
import plot_allocation  # noqa: E402
import plot_bandwidth  # noqa: E402
import plot_launch  # noqa: E402
import style  # noqa: E402

BANDWIDTH_LABELS = [label for _, label, _, _ in plot_bandwidth.SERIES]
LAUNCH_LABELS = [label for _, label, _ in plot_launch.IMPLEMENTATIONS]
# The committed real runs are older than peers.py's PyTorch launches: their
# plots have no PyTorch rows (a note says why).
SAMPLE_LAUNCH_LABELS = [label for key, label, _ in plot_launch.IMPLEMENTATIONS if key != "torch"]
ALLOCATION_LABELS = [label for _, label, _, _, _ in plot_allocation.SERIES]
H100_CAPTION = ["NVIDIA H100 80GB HBM3, driver 580.159.04", "2026-11-24 19:02 UTC", "commit not recorded",
                "16 CPUs at 2100 MHz"]
SYNTHETIC_CAPTION = ["SYNTHETIC sample device", "2000-01-01 00:00 UTC", "commit SYNTHETIC-no-commit",
                     "SYNTHETIC sample host"]
OUTPUTS = ("copy_bandwidth.svg", "launch_cpu_cost.svg", "allocation_cost.svg", "round_trip_latency.svg")


def run_plots(run_dir, out_dir, *args, env=None):
    return subprocess.run([sys.executable, MAKE_PLOTS, run_dir, "--out", out_dir, *args],
                          capture_output=True, text=True, env=env)


def svg_texts(path):
    """The text of every <text> element; raises when the file is not SVG."""
    root = ET.parse(path).getroot()
    if root.tag != SVG + "svg":
        raise ValueError(f"{path}: the root element is {root.tag}, not svg")
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def missing_texts(path, expected):
    """The strings of `expected` that no <text> of the SVG contains."""
    texts = svg_texts(path)
    return [e for e in expected if not any(e in t for t in texts)]


def svg_files(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".svg")) if os.path.isdir(folder) else []


class PlotTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="dcplot-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def folder(self, name, *copy_from):
        """A new run folder holding the files of the given folders (later ones win)."""
        path = os.path.join(self.tmp, name)
        os.makedirs(path)
        for source in copy_from:
            for f in os.listdir(source):
                shutil.copyfile(os.path.join(source, f), os.path.join(path, f))
        return path

    def draw_ok(self, run_dir, *args):
        out = os.path.join(self.tmp, "out-" + os.path.basename(run_dir))
        result = run_plots(run_dir, out, *args)
        self.assertEqual(result.returncode, 0, f"make_plots failed:\n{result.stdout}\n{result.stderr}")
        return out, result

    def assert_svg(self, path, expected):
        self.assertTrue(os.path.exists(path), f"{path} was not written")
        self.assertEqual(missing_texts(path, expected), [], f"{path} lacks these texts")


class Samples(PlotTestCase):
    def test_real_sample_draws_launch_and_allocation(self):
        out, _ = self.draw_ok(REAL_SAMPLE, "--only", "launch,allocation")
        self.assertEqual(svg_files(out), ["allocation_cost.svg", "launch_cpu_cost.svg"])
        self.assert_svg(os.path.join(out, "launch_cpu_cost.svg"), SAMPLE_LAUNCH_LABELS + H100_CAPTION)
        self.assert_svg(os.path.join(out, "allocation_cost.svg"), ALLOCATION_LABELS + H100_CAPTION)
        for name in svg_files(out):
            self.assertEqual(missing_texts(os.path.join(out, name), [style.SYNTHETIC_BANNER]),
                             [style.SYNTHETIC_BANNER], f"{name}: real data must not carry the synthetic banner")
        with open(os.path.join(out, "numbers.md"), encoding="utf-8") as f:
            numbers = f.read()
        # The table rows PERFORMANCE.md gives for this run (pass 1, 2, 3 of the empty prepared launch).
        for row in ("4443 / 4571, +128 (2.9%)", "4375 / 4608, +233 (5.3%)", "4498 / 4649, +151 (3.4%)",
                    "99.94 / 3.23, 30.9x"):
            self.assertIn(row, numbers)
        self.assertNotIn("SYNTHETIC", numbers)

    def test_synthetic_sample_draws_bandwidth_and_round_trips(self):
        out, _ = self.draw_ok(SYNTHETIC_SAMPLE, "--only", "bandwidth,round_trips")
        self.assertEqual(svg_files(out), ["copy_bandwidth.svg", "round_trip_latency.svg"])
        self.assert_svg(os.path.join(out, "copy_bandwidth.svg"),
                        BANDWIDTH_LABELS + SYNTHETIC_CAPTION + [style.SYNTHETIC_BANNER])
        self.assert_svg(os.path.join(out, "round_trip_latency.svg"),
                        ["queue round trip (synthetic)", "launch + synchronize (synthetic)", "p50 ", "p99 ",
                         "p99.9 "] + SYNTHETIC_CAPTION + [style.SYNTHETIC_BANNER])
        with open(os.path.join(out, "numbers.md"), encoding="utf-8") as f:
            self.assertIn(style.SYNTHETIC_BANNER, f.read())

    def test_full_run_draws_all_four_by_default(self):
        run = self.folder("full", REAL_SAMPLE, SYNTHETIC_SAMPLE)
        out, result = self.draw_ok(run)
        self.assertEqual(svg_files(out), sorted(OUTPUTS))
        self.assertNotIn("skipped", result.stdout)

    def test_round_trips_skipped_by_default_without_queue_file(self):
        run = self.folder("no-queue", REAL_SAMPLE, SYNTHETIC_SAMPLE)
        os.remove(os.path.join(run, "bench_queue.json"))
        out, result = self.draw_ok(run)
        self.assertEqual(svg_files(out), sorted(OUTPUTS[:3]))
        self.assertIn("round_trip_latency.svg: skipped, the run has no bench_queue.json", result.stdout)

    def test_committed_h100_run(self):
        out, _ = self.draw_ok(REAL_RESULTS, "--only", "launch,allocation")
        self.assert_svg(os.path.join(out, "launch_cpu_cost.svg"), SAMPLE_LAUNCH_LABELS + H100_CAPTION)

    def test_committed_h100_run_lacks_the_sweep(self):
        out = os.path.join(self.tmp, "out")
        result = run_plots(REAL_RESULTS, out)
        self.assertEqual(result.returncode, 1)
        self.assertIn("bench_copy_sweep.json: missing; the bandwidth plot needs it", result.stderr)
        self.assertEqual(svg_files(out), [])

    def test_real_sample_is_the_committed_run(self):
        """Every benchmark number of the trimmed sample is the committed run's."""
        for name in os.listdir(REAL_SAMPLE):
            with open(os.path.join(REAL_SAMPLE, name), encoding="utf-8") as f:
                sample_text = f.read()
            with open(os.path.join(REAL_RESULTS, name), encoding="utf-8") as f:
                source_text = f.read()
            if not name.startswith("bench_"):
                self.assertEqual(sample_text, source_text, f"{name} differs from the committed run's")
                continue
            source = {b["name"]: b for b in json.loads(source_text)["benchmarks"]}
            sample = json.loads(sample_text)
            self.assertIn("trimmed_from", sample["context"])
            self.assertNotIn("synthetic", sample["context"])
            self.assertTrue(sample["benchmarks"], name)
            for entry in sample["benchmarks"]:
                for key, value in entry.items():
                    self.assertEqual(value, source[entry["name"]][key], f"{name}: {entry['name']} {key}")

    def test_fake_driver_run_is_marked(self):
        run = self.folder("fake", REAL_SAMPLE)
        path = os.path.join(run, "bench_memory.json")
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        data["context"]["device"] = "dccuda fake device 0 (test double, not a GPU)"
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        out, _ = self.draw_ok(run, "--only", "allocation,launch")
        self.assert_svg(os.path.join(out, "allocation_cost.svg"), [style.SYNTHETIC_BANNER + " (bench_memory.json)"])
        self.assertEqual(missing_texts(os.path.join(out, "launch_cpu_cost.svg"), [style.SYNTHETIC_BANNER]),
                         [style.SYNTHETIC_BANNER])

    def test_synthetic_sample_says_so(self):
        for name in os.listdir(SYNTHETIC_SAMPLE):
            with open(os.path.join(SYNTHETIC_SAMPLE, name), encoding="utf-8") as f:
                self.assertIn("synthetic sample for the plot tests", f.read(), name)


class Determinism(PlotTestCase):
    def test_same_records_same_files(self):
        run = self.folder("full", REAL_SAMPLE, SYNTHETIC_SAMPLE)
        outs = []
        for seed in ("1", "2"):
            out = os.path.join(self.tmp, "out" + seed)
            env = dict(os.environ, PYTHONHASHSEED=seed)
            result = run_plots(run, out, env=env)
            self.assertEqual(result.returncode, 0, result.stderr)
            outs.append(out)
        for name in sorted(os.listdir(outs[0])):
            with open(os.path.join(outs[0], name), "rb") as a, open(os.path.join(outs[1], name), "rb") as b:
                first, second = a.read(), b.read()
            self.assertEqual(first, second, f"{name} differs between two runs of the script")
            self.assertNotIn(b"<dc:date>", first)
            self.assertNotIn(b"Matplotlib v", first)


class PlantedMistakes(PlotTestCase):
    """Each mistake must stop the script (status 1) with a message that names
    it, before any plot is written."""

    def planted(self, only, edit, expected):
        run = self.folder("planted", REAL_SAMPLE, SYNTHETIC_SAMPLE)
        edit(run)
        out = os.path.join(self.tmp, "out")
        result = run_plots(run, out, "--only", only)
        self.assertEqual(result.returncode, 1, f"expected a failure:\n{result.stdout}\n{result.stderr}")
        for text in expected:
            self.assertIn(text, result.stderr)
        self.assertEqual(svg_files(out), [], "a plot was written despite the mistake")

    def edit_json(self, run, name, change):
        path = os.path.join(run, name)
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        change(data)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)

    def drop_benchmarks(self, run, name, prefix):
        self.edit_json(run, name, lambda d: d.update(
            benchmarks=[b for b in d["benchmarks"] if not b["name"].startswith(prefix)]))

    def test_sweep_without_a_series(self):
        self.planted("bandwidth", lambda run: self.drop_benchmarks(run, "bench_copy_sweep.json", "BM_Sweep_D2H_Pageable/"),
                     ["bench_copy_sweep.json: 0 result(s) of BM_Sweep_D2H_Pageable",
                      "device to host, pageable host memory"])

    def test_sweep_entry_that_failed(self):
        def fail(data):
            data["benchmarks"][3].update(error_occurred=True, error_message="cuMemcpyHtoD failed with CUresult 2")
        self.planted("bandwidth", lambda run: self.edit_json(run, "bench_copy_sweep.json", fail),
                     ["failed in the run (cuMemcpyHtoD failed with CUresult 2)"])

    def test_sweep_entry_without_counter(self):
        self.planted("bandwidth", lambda run: self.edit_json(
            run, "bench_copy_sweep.json", lambda d: d["benchmarks"][0].pop("dc_GB/s")),
            ["BM_Sweep_H2D_Pinned/4096", "no positive 'dc_GB/s' counter"])

    def test_peer_copies_without_a_kind(self):
        self.planted("bandwidth", lambda run: self.edit_json(
            run, "peers.json", lambda d: d["torch"]["copies"]["65536"].pop("d2h_pageable_GBps")),
            ["PyTorch's copies at '65536'", "'d2h_pageable_GBps'"])

    def test_launch_without_a_benchmark(self):
        self.planted("launch", lambda run: self.drop_benchmarks(run, "bench_launch.json", "BM_FourArgsOneShot/128"),
                     ["bench_launch.json: no BM_FourArgsOneShot/128 result"])

    def test_launch_pass_with_failed_benchmark(self):
        def fail(data):
            data["benchmarks"][0].update(error_occurred=True, error_message="dc_launch_enqueue: bad stream")
        self.planted("launch", lambda run: self.edit_json(run, "bench_launch-pass2.json", fail),
                     ["bench_launch-pass2.json: BM_EmptyEnqueue/32", "failed in the run"])

    def test_allocation_with_one_size(self):
        def keep_one(data):
            data["benchmarks"] = [b for b in data["benchmarks"]
                                  if not b["name"].startswith("BM_AllocFreeNoPool/") or "/4096/" in b["name"]]
        self.planted("allocation", lambda run: self.edit_json(run, "bench_memory.json", keep_one),
                     ["bench_memory.json: 1 result(s) of BM_AllocFreeNoPool"])

    def test_truncated_json(self):
        def truncate(run):
            path = os.path.join(run, "bench_memory.json")
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(text[: len(text) // 2])
        self.planted("allocation", truncate, ["bench_memory.json: not valid JSON", "cut short"])

    def test_queue_without_launch_synchronize(self):
        self.planted("round_trips", lambda run: self.edit_json(run, "bench_queue.json", lambda d: d.update(
            round_trips=[r for r in d["round_trips"] if r["name"] != "launch_synchronize"])),
            ["no round-trip distribution named 'launch_synchronize'"])

    def test_queue_histogram_counts_wrong(self):
        def change(data):
            data["round_trips"][0]["histogram"]["counts"][1] += 5
        self.planted("round_trips", lambda run: self.edit_json(run, "bench_queue.json", change),
                     ["round_trips[0] (queue): histogram counts add up to"])

    def test_queue_percentile_against_histogram(self):
        def change(data):
            data["round_trips"][1]["percentiles_ns"]["99"] = data["round_trips"][1]["percentiles_ns"]["50"] * 1.01
        self.planted("round_trips", lambda run: self.edit_json(run, "bench_queue.json", change),
                     ["percentiles_ns['99']", "disagrees with the histogram"])

    def test_queue_wrong_format(self):
        self.planted("round_trips", lambda run: self.edit_json(run, "bench_queue.json",
                                                               lambda d: d.update(format="something-else")),
                     ["format is 'something-else', not 'dccuda-round-trips/1'"])

    def test_svg_check_sees_a_missing_label(self):
        """The label check itself fails on an SVG that lacks a label."""
        out, _ = self.draw_ok(REAL_SAMPLE, "--only", "launch")
        path = os.path.join(out, "launch_cpu_cost.svg")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(LAUNCH_LABELS[1], "something else"))
        self.assertEqual(missing_texts(path, SAMPLE_LAUNCH_LABELS), [LAUNCH_LABELS[1]])
        with open(path, "w", encoding="utf-8") as f:
            f.write(text[: len(text) // 2])
        with self.assertRaises(ET.ParseError):
            svg_texts(path)


class PeersScript(PlotTestCase):
    """bench/peers.py against stand-ins of CuPy, PyTorch and cuda.core
    (tests/bench_plot/peer_stubs): its JSON has what the plots read."""

    def run_peers(self, *paths):
        output = os.path.join(self.tmp, "peers.json")
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        result = subprocess.run([sys.executable, PEERS, output, "--max-bytes", str(1 << 20)],
                                capture_output=True, text=True, env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(output, encoding="utf-8") as f:
            return json.load(f), result.stdout

    def test_copies_of_every_library(self):
        data, printed = self.run_peers(os.path.join(HERE, "peer_stubs"))
        sizes = [4096 << i for i in range(9)]
        self.assertEqual(data["copy_sizes"], sizes)
        for key in ("cupy", "torch", "cuda.core"):
            self.assertNotIn("error", data[key])
            self.assertEqual(sorted(int(s) for s in data[key]["copies"]), sizes)
            for copy in data[key]["copies"].values():
                for kind in ("h2d_pinned", "d2h_pinned", "h2d_pageable", "d2h_pageable"):
                    self.assertGreater(copy[kind + "_GBps"], 0)
                    self.assertGreater(copy[kind + "_us"], 0)
        self.assertIn("compiles no kernels", data["cupy"]["launch_error"])
        for kernel in ("launch_empty_us", "launch_4arg_us"):
            self.assertGreater(data["torch"][kernel], 0)
        self.assertIn("launch error", printed)
        run = self.folder("peers-run", SYNTHETIC_SAMPLE)
        shutil.copyfile(os.path.join(self.tmp, "peers.json"), os.path.join(run, "peers.json"))
        out, _ = self.draw_ok(run, "--only", "bandwidth")
        self.assert_svg(os.path.join(out, "copy_bandwidth.svg"), BANDWIDTH_LABELS)
        launch_run = self.folder("peers-launch", REAL_SAMPLE)
        shutil.copyfile(os.path.join(self.tmp, "peers.json"), os.path.join(launch_run, "peers.json"))
        out, _ = self.draw_ok(launch_run, "--only", "launch")
        self.assert_svg(os.path.join(out, "launch_cpu_cost.svg"),
                        ["CuPy: launches not measured (RuntimeError: the CuPy stand-in compiles no kernels)",
                         plot_launch.LABELS["torch"], "PyTorch, bursts of 256"])

    def test_a_missing_library_is_reported(self):
        missing = os.path.join(self.tmp, "missing")
        os.makedirs(os.path.join(missing, "torch"))
        with open(os.path.join(missing, "torch", "__init__.py"), "w", encoding="utf-8") as f:
            f.write("raise ImportError('torch is not installed (test)')\n")
        data, printed = self.run_peers(missing, os.path.join(HERE, "peer_stubs"))
        self.assertEqual(data["torch"], {"error": "not available: torch is not installed (test)"})
        self.assertIn("copies", data["cupy"])
        self.assertIn("PyTorch    not available", printed)
        run = self.folder("peers-run", SYNTHETIC_SAMPLE)
        shutil.copyfile(os.path.join(self.tmp, "peers.json"), os.path.join(run, "peers.json"))
        out, _ = self.draw_ok(run, "--only", "bandwidth")
        path = os.path.join(out, "copy_bandwidth.svg")
        self.assertEqual(missing_texts(path, BANDWIDTH_LABELS), [plot_bandwidth.LABELS["torch"]])
        self.assert_svg(path, ["PyTorch: not measured (not available: torch is not installed (test))"])


class RoundTripsWriter(PlotTestCase):
    """bench/round_trips.h writes what the round-trip plot reads."""

    def test_written_json_is_drawn(self):
        program = os.environ.get("DCPLOT_ROUND_TRIPS_SAMPLE")
        self.assertTrue(program and os.path.exists(program),
                        "set DCPLOT_ROUND_TRIPS_SAMPLE to the built round_trips_sample (CTest does)")
        run = self.folder("writer")
        result = subprocess.run([program, os.path.join(run, "bench_queue.json")], capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout.count("ok   "), 6, result.stdout)
        out, _ = self.draw_ok(run, "--only", "round_trips")
        self.assert_svg(os.path.join(out, "round_trip_latency.svg"),
                        ["queue round trip (made up by round_trips_sample)",
                         'launch + synchronize (made up by "round_trips_sample")',
                         "a set of a single sample", style.SYNTHETIC_BANNER])
        with open(os.path.join(run, "bench_queue.json"), encoding="utf-8") as f:
            data = json.load(f)
        queue = data["round_trips"][0]
        self.assertEqual(queue["count"], 5000)
        self.assertEqual(sum(queue["histogram"]["counts"]), 5000)
        self.assertLessEqual(queue["min_ns"], queue["percentiles_ns"]["50"])


if __name__ == "__main__":
    unittest.main()
