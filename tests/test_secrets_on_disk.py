"""The workspaces' tokens on disk and in logs: the SQLite file, its -wal and -shm and its folder are the owner's
alone; a database password never reaches a message or a log line; the default folder is the user's data folder,
named at start-up and left uncreated when start-up fails."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from effbatch.bot.operations.logs import mask
from effbatch.bot.operations.settings import default_data_dir
from effbatch.bot.storage.profiles import ChannelProfile, now
from effbatch.bot.storage.setup import StorageError, database_url, open_storage, shown_url

from bot_process import clean_env, run_script, start_http_bot
from fake_slack import FakeWebAPI
from slack_signing import SIGNING_SECRET


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_file_its_companions_and_its_folder_are_the_owners_alone(tmp_path: Path) -> None:
    """A new data folder is 0700; the database, its -wal and -shm (while open) and the lock files are 0600."""
    folder = tmp_path / "neu" / "daten"
    storage = open_storage(database_url(None, folder), migrate_now=True)
    storage.profiles.put("T1", "C1", ChannelProfile((("gpus", "64"),), "U1", now()))
    files = sorted(path.name for path in folder.iterdir())
    modes = {name: mode(folder / name) for name in files}
    storage.engine.dispose()
    assert mode(folder) == 0o700
    assert {"effbatch.sqlite3", "effbatch.sqlite3-wal", "effbatch.sqlite3-shm"} <= set(files)
    assert modes == dict.fromkeys(files, 0o600)


def test_files_an_older_version_left_readable_are_made_private(tmp_path: Path) -> None:
    """A database and -wal that an older effbatch made 0644 are 0600 once the bot opens them."""
    database = tmp_path / "effbatch.sqlite3"
    open_storage(f"sqlite:///{database}", migrate_now=True).engine.dispose()
    wal = tmp_path / "effbatch.sqlite3-wal"
    wal.touch()
    for path in (database, wal):
        path.chmod(0o644)
    storage = open_storage(f"sqlite:///{database}", migrate_now=False)
    storage.profiles.put("T1", "C1", ChannelProfile((("gpus", "64"),), "U1", now()))
    modes = mode(database), mode(wal)
    storage.engine.dispose()
    assert modes == (0o600, 0o600)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # after the user name, as SQLAlchemy hides it
        ("postgresql+psycopg://effbatch:geheim@db:5432/effbatch", "postgresql+psycopg://effbatch:***@db:5432/effbatch"),
        # as libpq's query parameter, which SQLAlchemy leaves alone
        (
            "postgresql+psycopg://effbatch@db/effbatch?password=geheim",
            "postgresql+psycopg://effbatch@db/effbatch?password=***",
        ),
        (
            "postgresql+psycopg://effbatch@db/e?sslmode=require&sslpassword=geheim",
            "postgresql+psycopg://effbatch@db/e?sslmode=require&sslpassword=***",
        ),
    ],
)
def test_a_database_password_is_never_shown(url: str, shown: str) -> None:
    """In messages (``shown_url``) and in log lines (``mask``), a database password is replaced by ***."""
    assert shown_url(url) == shown
    assert "geheim" not in mask(f"database detail={url}")


def test_an_unreachable_database_given_a_password_parameter_is_named_without_it() -> None:
    """The start-up message about a PostgreSQL that does not answer names the URL with ?password= hidden."""
    with pytest.raises(StorageError) as raised:
        open_storage("postgresql+psycopg://effbatch@127.0.0.1:1/effbatch?password=geheim", migrate_now=True)
    assert "password=***" in str(raised.value)
    assert "geheim" not in str(raised.value)


@pytest.mark.parametrize(
    ("environ", "folder"),
    [
        ({"XDG_DATA_HOME": "/srv/daten", "HOME": "/home/ada"}, "/srv/daten/effbatch"),
        ({"HOME": "/home/ada"}, "/home/ada/.local/share/effbatch"),
        ({"XDG_DATA_HOME": "", "HOME": "/home/ada"}, "/home/ada/.local/share/effbatch"),  # empty: unset
        ({"XDG_DATA_HOME": "relativ", "HOME": "/home/ada"}, "/home/ada/.local/share/effbatch"),  # relative: ignored
    ],
)
def test_the_default_data_folder_is_the_users(environ: dict[str, str], folder: str) -> None:
    """Without EFFBATCH_DATA_DIR the database lives in the user's data folder (XDG), not where the bot starts."""
    assert default_data_dir(environ) == Path(folder)


def test_a_bot_token_alone_names_both_ways_on_and_creates_nothing(tmp_path: Path) -> None:
    """Only SLACK_BOT_TOKEN: the error names SLACK_SIGNING_SECRET (HTTP) and SLACK_APP_TOKEN (Socket Mode), and no
    data folder is made."""
    env = clean_env(SLACK_BOT_TOKEN="xoxb-1", XDG_DATA_HOME=str(tmp_path / "xdg"))
    result = run_script("effbatch-bot", env=env, cwd=tmp_path)
    assert result.returncode == 2
    assert "SLACK_SIGNING_SECRET: fehlt für den HTTP-Modus" in result.stderr
    assert "SLACK_APP_TOKEN: fehlt für Socket Mode" in result.stderr
    assert not (tmp_path / "xdg").exists()
    assert not (tmp_path / "data").exists()


def test_the_data_folder_is_named_at_start_and_removed_when_start_up_fails(tmp_path: Path) -> None:
    """A bot that starts names its database in the user's data folder (0700); one whose token Slack refuses leaves
    no folder behind."""
    xdg = tmp_path / "xdg"
    with FakeWebAPI() as api:
        refused = clean_env(
            SLACK_BOT_TOKEN="xoxb-refused",
            SLACK_SIGNING_SECRET=SIGNING_SECRET,
            SLACK_API_URL=api.url,
            XDG_DATA_HOME=str(xdg),
        )
        assert run_script("effbatch-bot", "--mode", "http", env=refused, cwd=tmp_path).returncode == 2
        assert not (xdg / "effbatch").exists()
        bot = start_http_bot(api.url, tmp_path, XDG_DATA_HOME=str(xdg))
        log = bot.stop()
    assert f"database detail=sqlite:///{xdg / 'effbatch' / 'effbatch.sqlite3'}" in log
    assert mode(xdg / "effbatch") == 0o700
