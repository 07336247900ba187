"""The look of every plot, and SVG output that is the same file each time it
is drawn from the same records: a fixed salt for the SVG's element ids
(matplotlib otherwise draws them at random), no date or version in the
metadata, and text kept as text (svg.fonttype none: no glyph outlines, which
would change with the installed font's version, and labels a test can read).
"""
import matplotlib

matplotlib.use("svg")

from matplotlib.figure import Figure  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator  # noqa: E402

matplotlib.rcParams.update({
    "svg.hashsalt": "dccuda-bench-plot",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.grid": True,
    "grid.color": "#dddddd",
    "grid.linewidth": 0.6,
    "legend.fontsize": 8,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
})

METADATA = {"Creator": "dccuda bench/plot/make_plots.py", "Date": None}

# One colour per implementation, the same in every plot.
COLORS = {
    "dccuda": "#1f63b4",
    "dccuda_alt": "#6fa8dc",
    "raw": "#222222",
    "cupy": "#2a9d3a",
    "torch": "#d9541e",
    "cuda.core": "#8e44ad",
    "queue": "#1f63b4",
    "launch_synchronize": "#222222",
}

SYNTHETIC_BANNER = "NOT A MEASUREMENT: synthetic sample or fake-driver data"


def new_figure(width, height):
    return Figure(figsize=(width, height))


def format_bytes(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def plain_number(value, _position=None):
    """1, 2.5, 0.5, 20, 5000: no powers-of-ten notation on the log axes."""
    return f"{value:g}"


def log_axis(axis):
    """A log axis labelled at 1, 2 and 5 times each power of ten, in plain
    numbers (a reader should not have to decode 10^1)."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(plain_number))
    axis.set_minor_locator(NullLocator())


def size_axis(ax, sizes):
    """A log2 axis of transfer sizes, labelled at every power of four
    (every power of two when there are few sizes)."""
    ax.set_xscale("log", base=2)
    ticks = [s for s in sizes if (s.bit_length() - 1) % 2 == 0] if len(sizes) > 8 else list(sizes)
    ax.set_xticks(ticks)
    ax.set_xticklabels([format_bytes(s) for s in ticks], rotation=45, ha="right")
    ax.minorticks_off()
    ax.set_xlim(min(sizes) / 1.4, max(sizes) * 1.4)


def finish(fig, run, sources, notes=(), synthetic=()):
    """The caption every plot carries (device, host, date, commit, the files
    it was drawn from and notes), and the synthetic-data banner when any
    input says it is made up."""
    lines = [run.caption(), "data: " + ", ".join(sources) + " (tests/gpu/run.sh --bench)"]
    lines += list(notes)
    fig.text(0.01, 0.005, "\n".join(lines), fontsize=7, color="#444444", va="bottom", ha="left")
    synthetic = list(synthetic) + run.synthetic_records()
    if synthetic:
        fig.text(0.5, 0.5, SYNTHETIC_BANNER, fontsize=22, color="#cc0000", alpha=0.3, rotation=20,
                 ha="center", va="center")
        above_caption = (len(lines) * 7 * 1.25 / 72 + 0.05) / fig.get_figheight()
        fig.text(0.01, above_caption, SYNTHETIC_BANNER + " (" + ", ".join(synthetic) + ")", fontsize=8,
                 color="#cc0000", ha="left", va="bottom")


def caption_height(lines):
    """Inches of figure the caption of `lines` lines needs at the bottom (and
    room for the synthetic-data line above it)."""
    return 0.16 * lines + 0.3


def save(fig, path):
    fig.savefig(path, format="svg", metadata=METADATA)
