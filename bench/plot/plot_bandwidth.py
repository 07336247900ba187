"""Host <-> device copy bandwidth against size (log-log), pinned and
pageable, both directions: dccuda and the raw driver from bench_copy_sweep
(the same run, paired), and the peer libraries from peers.py where the run
measured them."""
from run_records import InputError
import style

OUTPUT = "copy_bandwidth.svg"
TITLE = "Host <-> device copy bandwidth"

# (family suffix, peers.py key, panel title)
PANELS = (
    ("H2D_Pinned", "h2d_pinned", "host to device, pinned host memory"),
    ("D2H_Pinned", "d2h_pinned", "device to host, pinned host memory"),
    ("H2D_Pageable", "h2d_pageable", "host to device, pageable host memory"),
    ("D2H_Pageable", "d2h_pageable", "device to host, pageable host memory"),
)

SERIES = (  # key, legend label, marker, line style
    ("dccuda", "dccuda (dc_buffer_write / dc_buffer_read)", "o", "-"),
    ("raw", "raw driver (cuMemcpyHtoD / cuMemcpyDtoH)", "s", "--"),
    ("cupy", "CuPy (ndarray.set / get)", "^", ":"),
    ("torch", "PyTorch (Tensor.copy_)", "v", ":"),
    ("cuda.core", "cuda.core (Buffer.copy_from)", "D", ":"),
)
LABELS = {key: label for key, label, _, _ in SERIES}

PEERS = (("cupy", "CuPy"), ("torch", "PyTorch"), ("cuda.core", "cuda.core"))


def collect(run):
    """{"panels": [{title, series: {key: [(size, GB/s)]}, samples: {size: n}}],
    "notes": [...], "sources": [...], "synthetic": [...]}; InputError when the
    sweep lacks one of the four copy kinds."""
    sweep = run.gbench("bench_copy_sweep.json", "bandwidth plot")
    peers = run.peers()
    data = {"panels": [], "notes": [], "sources": [sweep.name], "synthetic": []}
    if sweep.synthetic:
        data["synthetic"].append(sweep.name)
    for family_suffix, peer_key, title in PANELS:
        family = "BM_Sweep_" + family_suffix
        entries = sweep.family(family)
        if len(entries) < 2:
            raise InputError(f"{sweep.path}: {len(entries)} result(s) of {family}; the bandwidth plot needs "
                             f"the {title} copies at two sizes at least (was the sweep filtered or cut short?)")
        panel = {"title": title, "series": {}, "samples": {}}
        panel["series"]["dccuda"] = [(size, sweep.counter(e, "dc_GB/s")) for size, e in entries]
        panel["series"]["raw"] = [(size, sweep.counter(e, "raw_GB/s")) for size, e in entries]
        panel["samples"] = {size: int(sweep.counter(e, "samples")) for size, e in entries}
        for key, name in PEERS:
            points = peer_copies(run, peers, key, name, peer_key)
            if points:
                panel["series"][key] = points
        data["panels"].append(panel)
    if peers is None:
        data["notes"].append("peer libraries not measured: the run has no peers.json")
    else:
        data["sources"].append("peers.json")
        if peers.get("synthetic"):
            data["synthetic"].append("peers.json")
        for key, name in PEERS:
            result = peers.get(key)
            if result is None:
                data["notes"].append(f"{name}: not in peers.json (an older peers.py)")
            elif "error" in result:
                data["notes"].append(f"{name}: not measured ({result['error']})")
            elif "copies_error" in result:
                data["notes"].append(f"{name}: copies failed ({result['copies_error']})")
            elif "copies" not in result:
                data["notes"].append(f"{name}: no copies in peers.json")
    return data


def peer_copies(run, peers, key, name, peer_key):
    """[(size, GB/s)] of one library and copy kind; [] when not measured."""
    if not peers or key not in peers or "copies" not in peers[key]:
        return []
    points = []
    for size_text, copy in peers[key]["copies"].items():
        value = copy.get(peer_key + "_GBps")
        if not size_text.isdigit() or not isinstance(value, (int, float)) or value <= 0:
            raise InputError(f"{run.path('peers.json')}: {name}'s copies at {size_text!r} have no positive "
                             f"'{peer_key}_GBps' (found {value!r}); rerun bench/peers.py")
        points.append((int(size_text), float(value)))
    return sorted(points)


def draw(data, run):
    notes = data["notes"]
    fig = style.new_figure(11, 8.2 + 0.16 * len(notes))
    axes = fig.subplots(2, 2, sharex=True, sharey=True)
    sizes = sorted({size for panel in data["panels"] for points in panel["series"].values()
                    for size, _ in points})
    present = []
    for ax, panel in zip(axes.flat, data["panels"]):
        for key, label, marker, line in SERIES:
            points = panel["series"].get(key)
            if not points:
                continue
            if key not in present:
                present.append(key)
            ax.plot([s for s, _ in points], [v for _, v in points], marker=marker, linestyle=line,
                    color=style.COLORS[key], markersize=4, linewidth=1.6 if key == "dccuda" else 1.1,
                    label=label)
        ax.set_yscale("log")
        style.log_axis(ax.yaxis)
        ax.set_title(panel["title"])
        style.size_axis(ax, sizes)
        ax.tick_params(labelbottom=True)
    for ax in axes[:, 0]:
        ax.set_ylabel("GB/s (median copy time)")
    for ax in axes[1, :]:
        ax.set_xlabel("copy size")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    by_label = dict(zip(labels, handles))
    for ax in axes.flat[1:]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            by_label.setdefault(lab, h)
    ordered = [LABELS[k] for k in present]
    fig.legend([by_label[lab] for lab in ordered], ordered, loc="upper center", ncol=3,
               bbox_to_anchor=(0.5, 0.955))
    fig.suptitle(TITLE + ": median per size, each copy timed until it is complete", y=0.995)
    bottom = (0.55 + style.caption_height(2 + len(notes))) / fig.get_figheight()
    fig.subplots_adjust(left=0.07, right=0.98, top=0.87, bottom=bottom, hspace=0.55, wspace=0.08)
    style.finish(fig, run, data["sources"], notes, data["synthetic"])
    return fig


def table(data):
    lines = []
    for panel in data["panels"]:
        keys = [k for k, _, _, _ in SERIES if k in panel["series"]]
        lines.append(f"{TITLE}, {panel['title']} (GB/s; pairs: dccuda/raw samples per size):")
        lines.append("")
        lines.append("| size | " + " | ".join(LABELS[k].split(" (")[0] for k in keys) + " | pairs |")
        lines.append("| --- |" + " --- |" * (len(keys) + 1))
        values = {k: dict(panel["series"][k]) for k in keys}
        for size in sorted(panel["samples"]):
            cells = [f"{values[k][size]:.2f}" if size in values[k] else "-" for k in keys]
            lines.append(f"| {style.format_bytes(size)} | " + " | ".join(cells) + f" | {panel['samples'][size]} |")
        lines.append("")
    return "\n".join(lines)
