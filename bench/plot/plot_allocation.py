"""Allocation cost against size: dccuda's pooled allocation, dccuda without
the pool (DC_ALLOC_NO_POOL) and the raw driver's cuMemAlloc + cuMemFree
(bench_memory, every pass of the run that has them)."""
import statistics

from run_records import InputError
import style

OUTPUT = "allocation_cost.svg"
TITLE = "Device allocation + release, time per pair of calls"

FAMILIES = (("BM_AllocFree", "pooled"), ("BM_AllocFreeNoPool", "nopool"))
SERIES = (  # key, legend label, colour, marker, line style
    ("pooled", "dccuda, pooled (dc_buffer_alloc + dc_buffer_release)", "dccuda", "o", "-"),
    ("nopool", "dccuda, DC_ALLOC_NO_POOL", "dccuda_alt", "s", "-"),
    ("raw", "raw driver (cuMemAlloc + cuMemFree)", "raw", "D", "--"),
)
LABELS = {key: label for key, label, _, _, _ in SERIES}


def collect(run):
    """{"series": {key: {size: [(pass, us)]}}, "pairs": [...], ...}; the raw
    series holds the raw side of both comparisons (pooled and not)."""
    passes = run.passes("bench_memory", "allocation plot")
    series = {key: {} for key, _, _, _, _ in SERIES}
    pairs = []
    for family, key in FAMILIES:
        if len(passes[0].family(family)) < 2:
            raise InputError(f"{passes[0].path}: {len(passes[0].family(family))} result(s) of {family}; the "
                             f"allocation plot needs it at two sizes at least (was bench_memory filtered?)")
        for number, results in enumerate(passes, start=1):
            for size, entry in results.family(family):
                dc_us, raw_us = results.counter(entry, "dc_us"), results.counter(entry, "raw_us")
                series[key].setdefault(size, []).append((number, dc_us))
                series["raw"].setdefault(size, []).append((number, raw_us))
                pairs.append({"key": key, "size": size, "pass": number, "dc_us": dc_us, "raw_us": raw_us})
    return {"series": series, "pairs": pairs, "passes": len(passes), "notes": [],
            "sources": [p.name for p in passes], "synthetic": [p.name for p in passes if p.synthetic]}


def draw(data, run):
    fig = style.new_figure(9, 6)
    ax = fig.subplots()
    sizes = sorted({size for points in data["series"].values() for size in points})
    for key, label, color, marker, line in SERIES:
        points = data["series"][key]
        c = style.COLORS[color]
        xs = [size for size in sorted(points) for _ in points[size]]
        ys = [us for size in sorted(points) for _, us in points[size]]
        ax.scatter(xs, ys, s=14, facecolors="none", edgecolors=c, linewidths=0.8, alpha=0.7)
        medians = [statistics.median(us for _, us in points[size]) for size in sorted(points)]
        ax.plot(sorted(points), medians, color=c, marker=marker, linestyle=line, markersize=4, label=label)
    ax.set_yscale("log")
    style.log_axis(ax.yaxis)
    style.size_axis(ax, sizes)
    ax.set_xlabel("allocation size")
    ax.set_ylabel("us per allocation + release (median; o: one pass)")
    ax.legend(loc="upper left")
    fig.suptitle(f"{TITLE} ({data['passes']} pass(es) of bench_memory)", y=0.99)
    fig.subplots_adjust(left=0.1, right=0.98, top=0.92, bottom=(0.75 + style.caption_height(2)) / 6)
    style.finish(fig, run, data["sources"], data["notes"], data["synthetic"])
    return fig


def table(data):
    passes = data["passes"]
    lines = [f"{TITLE} (raw / dccuda us, raw / dccuda; passes separated by ';'):", "",
             "| size | pooled | without the pool |", "| --- | --- | --- |"]
    by = {}
    for pair in data["pairs"]:
        by.setdefault(pair["size"], {}).setdefault(pair["key"], []).append(pair)
    for size in sorted(by):
        cells = []
        for key in ("pooled", "nopool"):
            runs = sorted(by[size].get(key, []), key=lambda p: p["pass"])
            cells.append("; ".join(f"{p['raw_us']:.2f} / {p['dc_us']:.2f}, {p['raw_us'] / p['dc_us']:.3g}x"
                                   for p in runs) or "-")
        lines.append(f"| {style.format_bytes(size)} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"({passes} pass(es); a pass may measure only some of the benchmarks.)")
    lines.append("")
    return "\n".join(lines)
