"""Round-trip latency distribution: a message through dccuda's queue against
a launch + stream synchronisation, from bench_queue.json, whose shape
("dccuda-round-trips/1") is this:

  {
    "format": "dccuda-round-trips/1",
    "context": {"date_utc": ..., "device": ..., ...},   (as announce.h records;
                 "synthetic": "<why>" marks made-up data)
    "round_trips": [
      {
        "name": "queue",                  (required: "queue" and "launch_synchronize";
                                           others are drawn too)
        "label": "dccuda queue: host message -> device reply",
        "count": 100000,                  (round trips timed, after the warm-up)
        "min_ns": 3100.0, "max_ns": 48000.0,
        "percentiles_ns": {"50": 4100.0, "99": 5200.0, "99.9": 9100.0},
        "histogram": {"edges_ns": [e0, e1, ..., en], "counts": [c1, ..., cn]}
      },
      ...
    ]
  }

Percentiles are nearest-rank over the samples; the histogram's edges
increase strictly, its counts add up to count, and every sample lies in
[e0, en] (bench/round_trips.h writes the shape from a list of samples).
"""
from run_records import InputError
import style

OUTPUT = "round_trip_latency.svg"
TITLE = "Round-trip latency"
FORMAT = "dccuda-round-trips/1"
FILE = "bench_queue.json"
REQUIRED = ("queue", "launch_synchronize")
PERCENTILES = ("50", "99", "99.9")


def collect(run):
    raw = run.json_file(FILE, "round-trip plot")
    path = run.path(FILE)
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        found = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
        raise InputError(f"{path}: format is {found!r}, not {FORMAT!r} (see bench/plot/plot_round_trips.py)")
    entries = raw.get("round_trips")
    if not isinstance(entries, list):
        raise InputError(f"{path}: no \"round_trips\" list")
    distributions = [check_distribution(path, i, entry) for i, entry in enumerate(entries)]
    names = [d["name"] for d in distributions]
    for name in REQUIRED:
        if name not in names:
            raise InputError(f"{path}: no round-trip distribution named {name!r} (found {names}); the plot "
                             f"compares the queue against launch + synchronize and needs both")
    order = {name: i for i, name in enumerate(REQUIRED)}
    distributions.sort(key=lambda d: (order.get(d["name"], len(order)), d["name"]))
    context = raw.get("context", {})
    return {"distributions": distributions, "sources": [FILE], "notes": [],
            "synthetic": [FILE] if context.get("synthetic") else []}


def check_distribution(path, index, entry):
    where = f"{path}: round_trips[{index}]"
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise InputError(f"{where}: not an object with a \"name\"")
    where += f" ({entry['name']})"
    count = entry.get("count")
    if not isinstance(count, int) or count <= 0:
        raise InputError(f"{where}: \"count\" must be a positive integer, found {count!r}")
    histogram = entry.get("histogram") or {}
    edges, counts = histogram.get("edges_ns"), histogram.get("counts")
    if not isinstance(edges, list) or not isinstance(counts, list) or len(edges) != len(counts) + 1 or not counts:
        raise InputError(f"{where}: the histogram needs \"edges_ns\" (n + 1 numbers) and \"counts\" (n numbers)")
    if any(not isinstance(e, (int, float)) or e <= 0 for e in edges) or any(b <= a for a, b in zip(edges, edges[1:])):
        raise InputError(f"{where}: histogram edges must be positive and strictly increasing")
    if any(not isinstance(c, int) or c < 0 for c in counts) or sum(counts) != count:
        raise InputError(f"{where}: histogram counts add up to {sum(counts)}, not count = {count}")
    percentiles = entry.get("percentiles_ns") or {}
    values = []
    for p in PERCENTILES:
        value = percentiles.get(p)
        if not isinstance(value, (int, float)) or not edges[0] <= value <= edges[-1]:
            raise InputError(f"{where}: percentiles_ns[{p!r}] = {value!r} is missing or outside the histogram "
                             f"[{edges[0]}, {edges[-1]}] ns")
        values.append(value)
        # The percentile's bin must hold the p-th fraction of the samples.
        below = sum(c for c, upper in zip(counts, edges[1:]) if upper <= value)
        within = sum(c for c, lower, upper in zip(counts, edges, edges[1:]) if lower <= value <= upper)
        rank = float(p) / 100 * count
        if not below - 1e-9 <= rank <= below + within + 1e-9:
            raise InputError(f"{where}: percentiles_ns[{p!r}] = {value} disagrees with the histogram "
                             f"({below} of {count} round trips below it, {within} in its bin)")
    if values != sorted(values):
        raise InputError(f"{where}: percentiles_ns must not decrease from p50 to p99.9: {values}")
    low, high = entry.get("min_ns"), entry.get("max_ns")
    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)) or not low <= values[0] <= values[-1] <= high:
        raise InputError(f"{where}: min_ns / max_ns ({low!r} / {high!r}) must bracket the percentiles")
    return {"name": entry["name"], "label": entry.get("label", entry["name"]), "count": count,
            "edges": [float(e) for e in edges], "counts": counts, "percentiles": dict(zip(PERCENTILES, values)),
            "min": float(low), "max": float(high)}


def color(distribution, index):
    return style.COLORS.get(distribution["name"], ["#2a9d3a", "#d9541e", "#8e44ad"][index % 3])


def draw(data, run):
    fig = style.new_figure(11, 5.4)
    hist_ax, tail_ax = fig.subplots(1, 2)
    for i, d in enumerate(data["distributions"]):
        c = color(d, i)
        edges_us = [e / 1000 for e in d["edges"]]
        label = f"{d['label']} ({d['count']} round trips)"
        hist_ax.stairs([n / d["count"] for n in d["counts"]], edges_us, color=c, linewidth=1.3, label=label)
        # Fraction of round trips slower than x: 1 at the first edge, then
        # after each bin; the last bin's 0 cannot be drawn on a log scale.
        slower, remaining = [], d["count"]
        for n in d["counts"]:
            remaining -= n
            slower.append(remaining / d["count"])
        xs = [edges_us[0]] + edges_us[1:]
        ys = [1.0] + slower
        keep = [(x, y) for x, y in zip(xs, ys) if y > 0]
        tail_ax.step([x for x, _ in keep], [y for _, y in keep], where="post", color=c, linewidth=1.3, label=label)
        for p, value in d["percentiles"].items():
            us = value / 1000
            fraction = 1 - float(p) / 100
            for ax in (hist_ax, tail_ax):
                ax.axvline(us, color=c, linestyle=":", linewidth=0.9)
            tail_ax.plot([us], [fraction], marker="o", color=c, markersize=4)
            tail_ax.annotate(f"p{p} {us:.2f} us", (us, fraction), xytext=(5, 3), textcoords="offset points",
                             fontsize=7, color=c)
    hist_ax.set_xscale("log")
    style.log_axis(hist_ax.xaxis)
    hist_ax.set_xlabel("round-trip time, us")
    hist_ax.set_ylabel("fraction of round trips per bin")
    hist_ax.set_title("histogram (dotted: p50, p99, p99.9)")
    tail_ax.set_xscale("log")
    style.log_axis(tail_ax.xaxis)
    tail_ax.set_yscale("log")
    tail_ax.set_xlabel("round-trip time, us")
    tail_ax.set_ylabel("fraction of round trips slower")
    tail_ax.set_title("tail: p50 at 0.5, p99 at 0.01, p99.9 at 0.001")
    low, high = tail_ax.get_xlim()
    tail_ax.set_xlim(low, high * 1.6)  # room for the last percentile's label
    handles, labels = hist_ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 0.95))
    fig.suptitle(f"{TITLE}: a message through the queue against launch + synchronize", y=0.995)
    fig.subplots_adjust(left=0.07, right=0.98, top=0.8, bottom=(0.6 + style.caption_height(2)) / 5.4, wspace=0.22)
    style.finish(fig, run, data["sources"], data["notes"], data["synthetic"])
    return fig


def table(data):
    lines = [f"{TITLE} (us):", "", "| round trip | count | min | p50 | p99 | p99.9 | max |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for d in data["distributions"]:
        p = d["percentiles"]
        lines.append(f"| {d['label']} | {d['count']} | {d['min'] / 1000:.2f} | {p['50'] / 1000:.2f} | "
                     f"{p['99'] / 1000:.2f} | {p['99.9'] / 1000:.2f} | {d['max'] / 1000:.2f} |")
    lines.append("")
    return "\n".join(lines)
