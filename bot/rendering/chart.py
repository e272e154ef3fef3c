"""A ``Chart`` drawn as a PNG with matplotlib's Agg backend – the one module that imports matplotlib.

Imported only where a picture is sent (the scaling answer in Slack), never by the calculator or at the bot's
start: matplotlib and numpy take longer to import than any answer takes. ``Figure`` with its own Agg canvas
keeps no global state (no pyplot), so two threads may draw at once.
"""

from __future__ import annotations

import io

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from effbatch.bot.rendering.formatting import number, reading
from effbatch.bot.rendering.scaling import Chart

#: Width and height in inches at ``DPI``: 1.200 × 675 pixels, what Slack shows without cropping.
SIZE = (8.0, 4.5)
DPI = 150
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png(chart: Chart) -> bytes:
    """The chart as PNG bytes: throughput and its linear ideal on a log-log left axis, efficiency on the right."""
    figure = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    left = figure.add_subplot()
    rate, *others = chart.left
    left.plot(chart.x, rate.values, marker="o", color="tab:blue", label=rate.label)
    for series in others:
        left.plot(chart.x, series.values, linestyle="--", color="tab:gray", label=series.label)
    left.set(xscale="log", yscale="log", xlabel=chart.x_label, ylabel=chart.left_label, title=chart.title)
    left.xaxis.set_major_formatter(FuncFormatter(lambda value, _: number(round(value))))
    left.yaxis.set_major_formatter(FuncFormatter(lambda value, _: reading(value)))
    left.set_xticks(chart.x, [number(x) for x in chart.x])
    right = left.twinx()
    right.plot(chart.x, chart.right.values, marker="s", color="tab:orange", label=chart.right.label)
    right.set(ylabel=chart.right_label, ylim=(0, 1.05))
    right.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    for x, label in chart.marks:
        left.axvline(x, color="tab:red" if x != chart.marks[0][0] else "tab:green", linewidth=1, alpha=0.6)
        left.annotate(label, (x, 0.02), xycoords=("data", "axes fraction"), rotation=90, fontsize=8)
    handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
    left.legend(handles=handles, loc="upper left", fontsize=8)
    out = io.BytesIO()
    figure.savefig(out, format="png")
    return out.getvalue()
