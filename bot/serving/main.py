"""``effbatch-bot``: run the Slack bot in Socket Mode, HTTP mode or as a local console.

The modules that build the app are imported only once the mode is known: with
several gunicorn workers, Prometheus' multiprocess directory has to be set first.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from urllib.error import URLError

from slack_bolt.error import BoltError
from slack_sdk.errors import SlackApiError

from bot.operations.logs import configure_logging
from bot.operations.settings import ConfigError, Mode, Settings, load_settings
from bot.texts import operator as texts

EXIT_CONFIG = 2
EXIT_UNREACHABLE = 1
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="effbatch-bot", description=texts.BOT_DESCRIPTION)
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=texts.BOT_MODE_HELP)
    parser.add_argument("--port", type=int, help=texts.BOT_PORT_HELP)
    parser.add_argument("--host", default="0.0.0.0", help=texts.BOT_HOST_HELP)
    parser.add_argument("--env-file", type=Path, default=Path(".env"), help=texts.BOT_ENV_FILE_HELP)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        settings = load_settings(args.env_file if args.env_file.is_file() else None)
        mode = Mode(args.mode) if args.mode else settings.default_mode()
        settings.require_for(mode)
    except ConfigError as error:
        print(texts.CONFIG_ERROR.format(variable=error.variable, problem=error.problem), file=sys.stderr)
        return EXIT_CONFIG
    # In the console, log lines would interleave with the answers; only warnings unless debugging.
    quiet = mode is Mode.CONSOLE and settings.log_level != "DEBUG"
    configure_logging(
        "WARNING" if quiet else settings.log_level, settings.log_format, settings.effbatch_log_command_text
    )
    if mode is Mode.CONSOLE:
        from bot.serving.console import run_console, stream_reader, terminal_reader

        reader = terminal_reader if sys.stdin.isatty() else stream_reader(sys.stdin)
        return run_console(settings, reader, sys.stdout)
    if mode is Mode.HTTP and settings.web_concurrency > 1 and not os.environ.get(MULTIPROCESS_ENV):
        # Before prometheus_client is imported: each worker then writes its values where /metrics sums them.
        os.environ[MULTIPROCESS_ENV] = tempfile.mkdtemp(prefix="effbatch-metrics-")
    try:
        return _serve(mode, settings, args.host, args.port or settings.port)
    except (BoltError, SlackApiError) as error:
        print(texts.SLACK_REJECTED.format(detail=error), file=sys.stderr)
        return EXIT_CONFIG
    except (URLError, OSError) as error:
        print(texts.SLACK_UNREACHABLE.format(url=settings.slack_api_url, detail=error), file=sys.stderr)
        return EXIT_UNREACHABLE


def _serve(mode: Mode, settings: Settings, host: str, port: int) -> int:
    from bot.slack.app import create_app

    app = create_app(settings)
    if mode is Mode.HTTP:
        from bot.serving.http_server import serve_http

        assert settings.slack_signing_secret is not None  # require_for(Mode.HTTP) checked it
        serve_http(app, settings.slack_signing_secret.get_secret_value(), host, port, settings.web_concurrency)
        return 0
    from bot.serving.socket_mode import serve_socket_mode

    assert settings.slack_app_token is not None  # require_for(Mode.SOCKET) checked it
    serve_socket_mode(app, settings.slack_app_token.get_secret_value(), host, port)
    return 0
