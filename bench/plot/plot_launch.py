"""Launch CPU cost: the raw driver, dccuda's prepared launch and its one-shot
launch (bench_launch, every pass of the run), and the peer libraries
(peers.py), one mark per pass so that the spread between passes shows."""
import statistics

import matplotlib.transforms

from run_records import InputError
import style

OUTPUT = "launch_cpu_cost.svg"
TITLE = "Launch CPU cost per launch"

KERNELS = (("Empty", "empty kernel", "launch_empty_us"),
           ("FourArgs", "4-argument kernel (saxpy, n = 0)", "launch_4arg_us"))
BURSTS = (32, 128)

IMPLEMENTATIONS = (  # key, legend label, short row label
    ("raw", "raw driver (cuLaunchKernel)", "raw"),
    ("prepared", "dccuda prepared (dc_launch_enqueue)", "dccuda prepared"),
    ("oneshot", "dccuda one-shot (dc_launch_kernel)", "dccuda one-shot"),
    ("cupy", "CuPy (RawKernel)", "CuPy"),
    ("torch", "PyTorch (its operators: fill_ of 1 float, add_ of 1024)", "PyTorch"),
    ("cuda.core", "cuda.core (launch)", "cuda.core"),
)
LABELS = {key: label for key, label, _ in IMPLEMENTATIONS}
SHORT = {key: short for key, _, short in IMPLEMENTATIONS}
COLOR_OF = {"raw": "raw", "prepared": "dccuda", "oneshot": "dccuda_alt", "cupy": "cupy", "torch": "torch",
            "cuda.core": "cuda.core"}
PEERS = (("cupy", "CuPy"), ("torch", "PyTorch"), ("cuda.core", "cuda.core"))


def collect(run):
    """{"kernels": [{title, rows: [{key, burst, values: [(pass, ns)]}],
    pairs: [{name, burst, key, per_pass: [(pass, raw_ns, dc_ns)]}]}], ...}."""
    passes = run.passes("bench_launch", "launch plot")
    data = {"kernels": [], "notes": [], "sources": [p.name for p in passes], "synthetic": [],
            "passes": len(passes)}
    data["synthetic"] = [p.name for p in passes if p.synthetic]
    for kernel, title, peer_key in KERNELS:
        rows, pairs = [], []
        for burst in BURSTS:
            raw, by_key = [], {}
            for key, family in (("prepared", f"BM_{kernel}Enqueue"), ("oneshot", f"BM_{kernel}OneShot")):
                name = f"{family}/{burst}"
                if passes[0].find(name) is None:
                    raise InputError(f"{passes[0].path}: no {name} result; the launch plot needs it "
                                     f"(was bench_launch filtered or cut short?)")
                per_pass = []
                for number, results in enumerate(passes, start=1):
                    entry = results.find(name)
                    if entry is None:
                        continue  # a later pass may run fewer benchmarks
                    raw_ns, dc_ns = results.counter(entry, "raw_ns"), results.counter(entry, "dc_ns")
                    per_pass.append((number, raw_ns, dc_ns))
                    raw.append((number, raw_ns))
                by_key[key] = [(number, dc_ns) for number, _, dc_ns in per_pass]
                pairs.append({"name": name, "burst": burst, "key": key, "per_pass": per_pass})
            rows.append({"key": "raw", "burst": burst, "values": raw})
            rows += [{"key": key, "burst": burst, "values": by_key[key]} for key in ("prepared", "oneshot")]
        rows += peer_rows(run, peer_key, data["notes"])
        data["kernels"].append({"title": title, "rows": rows, "pairs": pairs})
    peers = run.peers()
    if peers is not None:
        data["sources"].append("peers.json")
        if peers.get("synthetic"):
            data["synthetic"].append("peers.json")
    data["notes"] = sorted(set(data["notes"]))
    return data


def peer_rows(run, kernel_key, notes):
    """The peer libraries' rows for one kernel (a single pass: peers.py runs
    once); libraries not measured go to the notes."""
    peers = run.peers()
    if peers is None:
        notes.append("peer libraries not measured: the run has no peers.json")
        return []
    rows = []
    burst = peers.get("burst", 256)
    for key, name in PEERS:
        result = peers.get(key)
        if result is None or "error" in result or "launch_error" in result:
            reason = "not in peers.json" if result is None else result.get("error", result.get("launch_error"))
            notes.append(f"{name}: launches not measured ({reason})")
            continue
        if kernel_key not in result:
            # peers.py measured PyTorch's copies only before it measured its launches.
            notes.append(f"{name}: launches not in peers.json (an older peers.py)")
            continue
        value = result.get(kernel_key)
        if not isinstance(value, (int, float)) or value <= 0:
            raise InputError(f"{run.path('peers.json')}: {name} has no positive '{kernel_key}' "
                             f"(found {value!r}); rerun bench/peers.py")
        rows.append({"key": key, "burst": burst, "values": [(1, value * 1000.0)]})
    return rows


def draw(data, run):
    notes = data["notes"]
    rows = [len(k["rows"]) for k in data["kernels"]]
    panel_heights = [0.32 * n + 0.7 for n in rows]
    top, bottom = 1.0, 0.45 + style.caption_height(2 + len(notes))
    fig = style.new_figure(10, top + sum(panel_heights) + bottom)
    axes = fig.subplots(len(rows), 1, sharex=True, gridspec_kw={"height_ratios": rows})
    handles = {}
    for ax, kernel in zip(axes, data["kernels"]):
        labels = []
        median_at = matplotlib.transforms.blended_transform_factory(ax.transAxes, ax.transData)
        for y, row in enumerate(kernel["rows"]):
            values = [v for _, v in row["values"]]
            color = style.COLORS[COLOR_OF[row["key"]]]
            ax.plot([min(values), max(values)], [y, y], color=color, linewidth=1, alpha=0.6)
            mark = ax.scatter(values, [y] * len(values), s=22, facecolors="none", edgecolors=color,
                              linewidths=1.1, zorder=3)
            middle = statistics.median(values)
            ax.plot([middle, middle], [y - 0.32, y + 0.32], color=color, linewidth=2.4)
            ax.text(1.01, y, f"{middle:.0f} ns", transform=median_at, fontsize=8, color=color, va="center")
            handles.setdefault(row["key"], mark)
            labels.append(f"{SHORT[row['key']]}, bursts of {row['burst']}")
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels)
        ax.set_ylim(len(labels) - 0.5, -0.5)
        ax.set_title(kernel["title"], loc="left")
        ax.tick_params(labelbottom=True)
    axes[-1].set_xlabel("CPU time per launch, ns (median over bursts)")
    keys = [k for k, _, _ in IMPLEMENTATIONS if k in handles]
    height = fig.get_figheight()
    fig.legend([handles[k] for k in keys], [LABELS[k] for k in keys], loc="upper center", ncol=3,
               bbox_to_anchor=(0.5, 1 - 0.3 / height))
    fig.suptitle(f"{TITLE}: o one pass ({data['passes']} of bench_launch), bar the median of the passes; "
                 "peers: one run of peers.py", y=1 - 0.05 / height)
    fig.subplots_adjust(left=0.24, right=0.9, hspace=0.25 + 0.2 / max(rows), top=1 - top / height,
                        bottom=bottom / height)
    style.finish(fig, run, data["sources"], notes, data["synthetic"])
    return fig


def table(data):
    passes = data["passes"]
    lines = [f"{TITLE} (raw / dccuda ns per launch and dccuda's extra, each pass's own pair):", ""]
    lines.append("| benchmark | " + " | ".join(f"pass {n}" for n in range(1, passes + 1)) + " |")
    lines.append("| --- |" + " --- |" * passes)
    for kernel in data["kernels"]:
        for pair in kernel["pairs"]:
            cells = {}
            for number, raw_ns, dc_ns in pair["per_pass"]:
                extra = dc_ns - raw_ns
                cells[number] = f"{raw_ns:.0f} / {dc_ns:.0f}, {extra:+.0f} ({extra / raw_ns * 100:.1f}%)"
            row = [cells.get(n, "-") for n in range(1, passes + 1)]
            what = f"{kernel['title']}, {SHORT[pair['key']]}, bursts of {pair['burst']}"
            lines.append(f"| {what} | " + " | ".join(row) + " |")
    peer_lines = [f"| {kernel['title']}, {SHORT[row['key']]}, bursts of {row['burst']} | {row['values'][0][1]:.0f} |"
                  for kernel in data["kernels"] for row in kernel["rows"] if row["key"] in ("cupy", "cuda.core")]
    if peer_lines:
        lines += ["", "Peers (peers.py, one run; ns per launch):", "", "| library | ns |", "| --- | --- |"]
        lines += peer_lines
    lines.append("")
    return "\n".join(lines)
