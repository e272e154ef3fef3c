"""``effbatch-bot``: run the Slack bot in Socket Mode, HTTP mode or as a local console.

The modules that build the app are imported only once the mode is known: with
several HTTP workers, Prometheus' multiprocess directory has to be set first.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from slack_bolt.error import BoltError

from effbatch.bot.check_runner import CheckPool
from effbatch.bot.operations.logs import configure_logging
from effbatch.bot.operations.settings import ConfigError, Mode, Settings, load_settings
from effbatch.bot.serving.arguments import GermanArgumentParser
from effbatch.bot.texts import operator as texts
from effbatch.bot.texts import storage as storage_texts

if TYPE_CHECKING:
    from slack_bolt import App

    from effbatch.bot.slack.app import PlainCommand
    from effbatch.bot.storage.setup import Storage

EXIT_CONFIG = 2
MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"


def _parser() -> argparse.ArgumentParser:
    parser = GermanArgumentParser(prog="effbatch-bot", description=texts.BOT_DESCRIPTION)
    parser.add_argument("--mode", choices=[m.value for m in Mode], help=texts.BOT_MODE_HELP)
    parser.add_argument("--port", type=int, help=texts.BOT_PORT_HELP)
    parser.add_argument("--host", default="0.0.0.0", help=texts.BOT_HOST_HELP)
    parser.add_argument("--env-file", type=Path, default=Path(".env"), help=texts.BOT_ENV_FILE_HELP)
    parser.add_argument("--migrate", action="store_true", help=storage_texts.MIGRATE_HELP)
    return parser


def config_message(error: ConfigError) -> str:
    """One German line for one bad setting, a list for several; always pointing at .env.example."""
    if len(error.problems) == 1:
        variable, problem = error.problems[0]
        line = texts.CONFIG_PROBLEM.format(variable=variable, problem=problem)
        return texts.CONFIG_ERROR.format(problems=line) + " " + texts.CONFIG_HINT
    lines = "\n".join(texts.CONFIG_BULLET.format(variable=v, problem=p) for v, p in error.problems)
    return texts.CONFIG_ERRORS.format(problems=lines) + "\n" + texts.CONFIG_HINT


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        settings = load_settings(args.env_file if args.env_file.is_file() else None)
        if args.migrate:
            return migrate_only(settings)
        mode = Mode(args.mode) if args.mode else settings.default_mode()
        settings.require_for(mode, chosen=args.mode is not None)
    except ConfigError as error:
        print(config_message(error), file=sys.stderr)
        return EXIT_CONFIG
    # In the console, log lines would interleave with the answers; only warnings unless debugging.
    quiet = mode is Mode.CONSOLE and settings.log_level != "DEBUG"
    configure_logging(
        "WARNING" if quiet else settings.log_level, settings.log_format, settings.effbatch_log_command_text
    )
    if mode is Mode.CONSOLE:
        return _console(settings)
    with _metrics_directory(mode is Mode.HTTP and settings.web_concurrency > 1):
        storage = open_database(settings)
        if storage is None:
            return EXIT_CONFIG
        checks = check_pool(settings)
        bot = _connect(settings, checks, storage)
        if bot is None:
            storage.discard()
            return EXIT_CONFIG
        logging.getLogger("effbatch").info("database", extra={"detail": storage.shown_url()})
        port = args.port or settings.port
        # What is built now (Bolt, SQLAlchemy, the stores) lives as long as the process: out of the garbage collector's
        # sight, so that forked workers do not copy every page of it the first time the collector runs in them.
        gc.freeze()
        try:
            return _serve(mode, bot, settings, args.host, port, checks, storage.guard.ready)
        except OSError as error:
            print(texts.PORT_IN_USE.format(port=port, detail=error.strerror or error), file=sys.stderr)
            return EXIT_CONFIG
        finally:
            checks.close()


def check_pool(settings: Settings) -> CheckPool:
    """The processes config checks run in, as configured; each bot process starts its own when it serves."""
    return CheckPool(
        settings.effbatch_check_processes,
        settings.effbatch_check_seconds,
        settings.effbatch_check_memory_mb * 1024 * 1024,
        wall=settings.effbatch_check_wall_seconds,
    )


def _console(settings: Settings) -> int:
    """The local console; a Ctrl+C even while it starts ends it on a fresh line, without a traceback."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the CLI: no plugin scan at start-up
    try:
        from effbatch.bot.serving.console import run_console, stream_reader, terminal_pending, terminal_reader
    except KeyboardInterrupt:
        print()
        return 0
    if sys.stdin.isatty():
        return run_console(settings, terminal_reader, sys.stdout, terminal_pending)
    return run_console(settings, stream_reader(sys.stdin), sys.stdout)


@contextmanager
def _metrics_directory(needed: bool) -> Iterator[None]:
    """Several HTTP workers keep their metrics in a directory /metrics sums; made for this run, removed after it.

    It has to exist before prometheus_client is imported; one the operator set is left alone.
    """
    if not needed or os.environ.get(MULTIPROCESS_ENV):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="effbatch-metrics-") as directory:
        os.environ[MULTIPROCESS_ENV] = directory
        yield


def migrate_only(settings: Settings) -> int:
    """``effbatch-bot --migrate``: the schema brought up to date, then exit (a job before a rollout)."""
    from effbatch.bot.storage.database import head_revision
    from effbatch.bot.storage.setup import shown_url

    storage = open_database(settings, migrate_now=True)
    if storage is None:
        return EXIT_CONFIG
    print(storage_texts.MIGRATED.format(url=shown_url(str(storage.engine.url)), head=head_revision()))
    return 0


def open_database(settings: Settings, migrate_now: bool | None = None) -> Storage | None:
    """The bot's storage (``DATABASE_URL``, else the SQLite file in ``EFFBATCH_DATA_DIR``), migrated or checked as
    ``EFFBATCH_MIGRATE`` says; None after one German line saying why not."""
    from effbatch.bot.storage.setup import StorageError, database_url, open_storage

    configured = settings.database_url.get_secret_value() if settings.database_url else None
    url = database_url(configured, settings.data_dir)
    migrating = settings.effbatch_migrate == "startup" if migrate_now is None else migrate_now
    try:
        return open_storage(
            url,
            migrate_now=migrating,
            client_id=settings.slack_client_id if settings.multi_workspace else None,
            seconds=settings.effbatch_database_seconds,
        )
    except StorageError as error:
        print(error, file=sys.stderr)
        return None


def _connect(settings: Settings, checks: CheckPool, storage: Storage) -> tuple[App, PlainCommand] | None:
    """The app, its token checked with Slack (auth.test); None after one German line saying why not.

    The Slack libraries' own (English) lines about the failed attempt stay out of the way meanwhile.
    """
    from slack_sdk.errors import SlackApiError

    from effbatch.bot.slack.app import BotParts, create_bot
    from effbatch.bot.slack.web_api import describe

    # "effbatch" too: Bolt copies the level its base logger (effbatch.bolt) has at this moment onto the app's
    # logger, named like the app; left at CRITICAL, every effbatch line (a worker's death, the drain) went missing.
    silenced = [logging.getLogger(name) for name in ("slack_sdk", "slack_bolt", "effbatch.bolt", "effbatch")]
    levels = [logger.level for logger in silenced]
    for logger in silenced:
        logger.setLevel(logging.CRITICAL)
    try:
        return create_bot(settings, BotParts(checks=checks, storage=storage))
    except (BoltError, SlackApiError) as error:
        detail = describe(error) if isinstance(error, SlackApiError) else str(error)
        print(texts.SLACK_REJECTED.format(detail=detail), file=sys.stderr)
    except OSError as error:
        url = without_credentials(settings.slack_api_url)
        print(texts.SLACK_UNREACHABLE.format(url=url, detail=describe(error)), file=sys.stderr)
    finally:
        for logger, level in zip(silenced, levels, strict=True):
            logger.setLevel(level)
    return None


def without_credentials(url: str) -> str:
    """``https://user:pw@host/api/`` → ``https://host/api/``: a URL fit for a log line or a message."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()


def _serve(
    mode: Mode,
    bot: tuple[App, PlainCommand],
    settings: Settings,
    host: str,
    port: int,
    checks: CheckPool,
    database_ready: Callable[[], bool],
) -> int:
    app, commands = bot
    if mode is Mode.HTTP:
        from effbatch.bot.serving.http_server import serve_http

        assert settings.slack_signing_secret is not None  # require_for(Mode.HTTP) checked it
        secret = settings.slack_signing_secret.get_secret_value()
        workers, drain = settings.web_concurrency, settings.effbatch_drain_seconds
        trusted = settings.trusted_proxies
        return serve_http(app, secret, host, port, workers, drain, checks, commands, database_ready, trusted)
    from effbatch.bot.serving.socket_mode import serve_socket_mode

    assert settings.slack_app_token is not None  # require_for(Mode.SOCKET) checked it
    checks.start()
    serve_socket_mode(app, settings.slack_app_token.get_secret_value(), host, port, settings.effbatch_reconnect_seconds)
    return 0
