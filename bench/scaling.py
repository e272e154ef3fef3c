"""The scaling answer's time: the table parsed, predicted and laid out for Slack, and the chart drawn as a PNG.

Run by ``make bench`` (``bench/bench.py``), or alone: ``.venv/bin/python bench/scaling.py``.
"""

from __future__ import annotations

import statistics
import time

#: A large table: 8 GPUs a replica, 64 replicas, to 256 replicas (2.048 GPUs) and the budget's critical batch.
COMMANDS = (
    "llama3.1-8b b=2 gpus=64 B=512 L=8k gpu=h100 budget=15T skalierung",
    "llama3.1-70b b=1 gpus=512 tp=8 a=4 L=8k gpu=h100 budget=2T skalierung",
)


def _percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def scaling_milliseconds(answers: int = 200, charts: int = 10) -> dict[str, tuple[float, float, float]]:
    """Per command: the answer (parse to Slack's payload) median and p99, and the PNG's median, in ms."""
    from effbatch.bot.document import Visibility
    from effbatch.bot.rendering.answers import answer_command
    from effbatch.bot.rendering.block_kit import message
    from effbatch.bot.rendering.chart import png
    from effbatch.bot.rendering.scaling import scaling_reply
    from effbatch.core import parse_command
    from effbatch.core.scaling_command import ScalingCommand

    found = {}
    for text in COMMANDS:
        times = []
        for _ in range(answers):
            started = time.perf_counter()
            message(answer_command(text, Visibility.IN_CHANNEL).document)
            times.append((time.perf_counter() - started) * 1e3)
        command = parse_command(text)
        assert isinstance(command, ScalingCommand)
        chart = scaling_reply(command.request, Visibility.IN_CHANNEL).chart
        png(chart)  # the first drawing loads fonts
        drawn = []
        for _ in range(charts):
            started = time.perf_counter()
            png(chart)
            drawn.append((time.perf_counter() - started) * 1e3)
        found[text] = (*_percentiles(times), statistics.median(drawn))
    return found


def print_scaling(found: dict[str, tuple[float, float, float]]) -> None:
    shown = "; ".join(
        f"`{text}` {median:.1f} ms (p99 {p99:.1f} ms), chart {chart:.0f} ms"
        for text, (median, p99, chart) in found.items()
    )
    print(f"Scaling answer (parse to payload, median and p99 of 200; PNG median of 10): {shown}.")


if __name__ == "__main__":
    print_scaling(scaling_milliseconds())
