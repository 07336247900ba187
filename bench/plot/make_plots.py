#!/usr/bin/env python3
"""Draws the benchmark plots of one GPU run as SVG files, and numbers.md,
the same figures as Markdown tables.

  python3 bench/plot/make_plots.py RUN_FOLDER [--out docs/perf] [--only bandwidth,launch,...]

RUN_FOLDER holds one run's results as tests/gpu/run.sh --bench writes them
(bench_*.json, bench_launch-pass2.json..., peers.json, gpu.txt, host.txt,
bundle.txt), e.g. bench/results/<date>-<gpu>. Without --only it draws the
copy bandwidth, launch CPU cost and allocation plots, which must all be
there, and the round-trip latency plot when the run has bench_queue.json.
Every plot names the device, host, date and commit and the files it was
drawn from. All inputs are checked before anything is written: a missing
benchmark, counter or series stops the script with a message that names the
file, and no plot is drawn from half its data. Exit status 0 when every plot
was written, 1 on an input problem, 2 on a usage error.
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from run_records import InputError, Run  # noqa: E402

PLOT_NAMES = ("bandwidth", "launch", "allocation", "round_trips")
OPTIONAL_BY_DEFAULT = {"round_trips": "bench_queue.json"}


def plot_modules():
    try:
        import plot_allocation
        import plot_bandwidth
        import plot_launch
        import plot_round_trips
        import style
    except ImportError as e:
        sys.exit(f"make_plots: {e} with {sys.executable}: matplotlib comes from Debian's python3-matplotlib "
                 f"(tests/scripts/setup_machine.sh installs it); run the script with /usr/bin/python3")
    return style, {"bandwidth": plot_bandwidth, "launch": plot_launch, "allocation": plot_allocation,
                   "round_trips": plot_round_trips}


def parse_args(argv):
    default_out = os.path.normpath(os.path.join(HERE, "..", "..", "docs", "perf"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="the folder of one run's results")
    parser.add_argument("--out", default=default_out, help=f"where the SVGs go (default {default_out})")
    parser.add_argument("--only", help="comma-separated plots, each then required: " + ", ".join(PLOT_NAMES))
    args = parser.parse_args(argv)
    if args.only:
        args.only = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in args.only if name not in PLOT_NAMES]
        if unknown or not args.only:
            parser.error(f"--only: unknown plot(s) {unknown}; choose from {', '.join(PLOT_NAMES)}")
    return args


def shown_path(folder):
    """The run folder as numbers.md names it: relative to the repository
    when inside it, else only its name (no machine's absolute paths)."""
    root = os.path.normpath(os.path.join(HERE, "..", ".."))
    relative = os.path.relpath(os.path.abspath(folder), root)
    return os.path.basename(os.path.abspath(folder)) if relative.startswith("..") else relative


def main(argv=None):
    args = parse_args(argv)
    style, modules = plot_modules()
    try:
        run = Run(args.run)
        chosen, skipped = [], []
        for name in args.only or PLOT_NAMES:
            needs = OPTIONAL_BY_DEFAULT.get(name)
            if not args.only and needs and not run.has(needs):
                skipped.append(f"{modules[name].OUTPUT}: skipped, the run has no {needs}")
                continue
            chosen.append(name)
        # Every input is read and checked before any file is written.
        collected = [(name, modules[name].collect(run)) for name in chosen]
    except InputError as e:
        print(f"make_plots: {e}", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    tables = [f"# Benchmark figures: {run.caption()}", "",
              f"Drawn by bench/plot/make_plots.py from {shown_path(args.run)}; "
              "the plots beside this file show the same numbers.", ""]
    for name, data in collected:
        module = modules[name]
        path = os.path.join(args.out, module.OUTPUT)
        style.save(module.draw(data, run), path)
        synthetic = data["synthetic"] + run.synthetic_records()
        if synthetic:
            tables += [f"**{style.SYNTHETIC_BANNER}** ({', '.join(synthetic)})", ""]
        tables.append(module.table(data))
        print(f"wrote {path}")
    with open(os.path.join(args.out, "numbers.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(tables).rstrip("\n") + "\n")
    print(f"wrote {os.path.join(args.out, 'numbers.md')}")
    for line in skipped:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
