"""Prometheus metrics: answers by kind, input errors, Slack API failures, request latency.

With several HTTP worker processes the values live in ``PROMETHEUS_MULTIPROC_DIR`` and
``/metrics`` aggregates them; that variable must be set before this module is
imported, which ``bot.main`` does for HTTP mode.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

ANSWERS = Counter("effbatch_answers", "Answers sent, by kind (calculation, solve, comparison, help, …)", ["kind"])
INPUT_ERRORS = Counter("effbatch_input_errors", "Commands, clicks and forms answered with an input error")
SLACK_API_FAILURES = Counter("effbatch_slack_api_failures", "Failed calls to Slack, by call", ["call"])
LATENCY = Histogram(
    "effbatch_request_seconds",
    "Time from receiving a Slack request to its acknowledgement, by request type",
    ["request"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


def exposition() -> tuple[bytes, str]:
    """The current values in Prometheus' text format, aggregated over worker processes if there are several."""
    if os.environ.get(MULTIPROCESS_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
