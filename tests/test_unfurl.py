"""A link to a config on GitHub, pasted in a channel, is fetched from a local stand-in for GitHub (never the real
network), checked and unfurled with the short answer and a button for the whole check."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import fake_checks
import pytest
from pydantic import SecretStr
from slack_bolt import App, BoltRequest
from slack_bolt.authorization import AuthorizeResult

from effbatch.bot.check_runner import CheckRunner
from effbatch.bot.github_files import FetchError, FetchFailure, GitHubFile, fetch, github_file
from effbatch.bot.operations.settings import Settings
from effbatch.bot.slack.app import BotParts, create_app
from effbatch.bot.slack.web_api import create_web_client
from effbatch.core.configs import check_config

from fake_github import FakeGitHub
from fake_slack import BOT_TOKEN, FakeWebAPI
from slack_signing import signed_headers

SECRET = "unfurl-secret"
LINK = "https://github.com/acme/train/blob/main/configs/ds.json"
#: DeepSpeed refuses it whatever the world size: 250 sequences are no multiple of 4 · 1 (runtime/config.py's
#: assertion train_batch_size == micro · accumulation · world size).
DS_250 = b'{"train_batch_size": 250, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1}'


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with FakeGitHub() as fake:
        fake.files["/acme/train/main/configs/ds.json"] = DS_250
        yield fake


@pytest.fixture
def api() -> Iterator[FakeWebAPI]:
    with FakeWebAPI() as fake:
        yield fake


@pytest.fixture
def app(api: FakeWebAPI, github: FakeGitHub) -> App:
    return bot(api, github)


def bot(api: FakeWebAPI, github: FakeGitHub, checks: CheckRunner = check_config) -> App:
    # The Web API stand-in is Slack here: its response URLs are the ones answers may go to.
    settings = Settings(
        slack_signing_secret=SecretStr(SECRET), effbatch_github_raw_url=github.url, slack_api_url=api.url
    )

    def authorize(**_: object) -> AuthorizeResult:
        return AuthorizeResult(enterprise_id=None, team_id="T0TEST", bot_token=BOT_TOKEN, bot_user_id="U0BOT")

    return create_app(settings, BotParts(client=create_web_client(None, api.url), authorize=authorize, checks=checks))


def dispatch(app: App, body: str, content_type: str) -> int:
    headers: dict[str, Any] = {**signed_headers(SECRET, body), "Content-Type": content_type}
    return app.dispatch(BoltRequest(body=body, headers=headers)).status


def share_link(app: App, *urls: str) -> None:
    event = {"type": "link_shared", "channel": "C0PLAN", "user": "U0ADA", "message_ts": "1700000000.000100"}
    event["links"] = [{"domain": "github.com", "url": url} for url in urls]  # type: ignore[assignment]
    body = {"type": "event_callback", "team_id": "T0TEST", "api_app_id": "A0TEST", "event": event}
    assert dispatch(app, json.dumps(body), "application/json") == 200


def unfurled(api: FakeWebAPI, timeout: float = 30, call: int = 0) -> dict[str, Any]:
    """The unfurls of the ``call``-th chat.unfurl call (the lazy listener runs after the acknowledgement)."""
    deadline = time.monotonic() + timeout
    while len(api.method_calls("chat.unfurl")) <= call:
        assert time.monotonic() < deadline, "chat.unfurl was not called"
        time.sleep(0.05)
    unfurls = api.method_calls("chat.unfurl")[call]["unfurls"]
    return json.loads(unfurls) if isinstance(unfurls, str) else unfurls


def texts(blocks: list[dict[str, Any]]) -> str:
    found = [b["text"]["text"] for b in blocks if "text" in b] + [
        e["text"] for b in blocks for e in b.get("elements", [])
    ]
    return "\n".join(t["text"] if isinstance(t, dict) else t for t in found)


def test_a_linked_config_is_unfurled_with_its_check(app: App, api: FakeWebAPI, github: FakeGitHub) -> None:
    """The raw file fetched without a token, checked (DeepSpeed refuses 250 sequences of 4 · 1 per GPU),
    unfurled at the message with the short answer and the button; the file's source is named."""
    share_link(app, LINK, "https://github.com/acme/train/issues/1")  # an issue is no file: left alone
    unfurls = unfurled(api)
    assert list(unfurls) == [LINK]
    blocks = unfurls[LINK]["blocks"]
    assert "*DeepSpeed: So startet dieser Lauf nicht*" in texts(blocks)
    assert "effbatch hat ds.json aus acme/train geprüft" in texts(blocks)
    assert blocks[-1]["elements"][0] == {
        "type": "button",
        "action_id": "effbatch_unfurl_full",
        "text": {"type": "plain_text", "text": "Ganze Prüfung anzeigen", "emoji": True},
        "value": LINK,
    }
    assert api.method_calls("chat.unfurl")[0]["channel"] == "C0PLAN"
    assert api.method_calls("chat.unfurl")[0]["ts"] == "1700000000.000100"
    path, headers = github.requests[0]
    assert path == "/acme/train/main/configs/ds.json"
    assert not {name.lower() for name in headers} & {"authorization", "cookie"}


def test_the_button_shows_the_whole_check_to_whoever_clicked(app: App, api: FakeWebAPI) -> None:
    """The button: the whole check (with DeepSpeed's own message and the fix), ephemeral, at the response_url."""
    action = {"action_id": "effbatch_unfurl_full", "block_id": "x", "value": LINK, "type": "button"}
    payload = {
        "type": "block_actions",
        "team": {"id": "T0TEST"},
        "user": {"id": "U0BOB"},
        "channel": {"id": "C0PLAN"},
        "container": {"type": "message_attachment"},
        "response_url": api.response_url("full"),
        "actions": [action],
    }
    assert dispatch(app, urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded") == 200
    name, posted = api.next_response()
    assert name == "full"
    assert posted["response_type"] == "ephemeral"
    assert posted["replace_original"] is False
    assert "DeepSpeed: So startet dieser Lauf nicht" in json.dumps(posted, ensure_ascii=False)


@pytest.mark.parametrize(
    ("url", "file"),
    [
        (LINK, GitHubFile("acme", "train", "main/configs/ds.json")),
        ("https://github.com/acme/train/raw/v1.2/train.sh#L4", GitHubFile("acme", "train", "v1.2/train.sh")),
        (
            "https://raw.githubusercontent.com/acme/train/abc123/a%20b.yaml",
            GitHubFile("acme", "train", "abc123/a b.yaml"),
        ),
        ("https://github.com/acme/train", None),  # a repository, not a file
        ("https://github.com/acme/train/blob/main/../../etc/passwd", None),
        # decoded before validated: one segment holding /../ is three segments on the raw host
        ("https://github.com/acme/train/blob/main/a%2F..%2F..%2F..%2Fother%2Frepo%2Fmain%2Fx.json", None),
        ("https://github.com/acme/train/blob/main/a%5C..%5Cx.json", None),  # a backslash as a separator
        ("https://github.com/../train/blob/main/x.json", None),  # no owner or repository is named . or ..
        ("https://github.com/acme/./blob/main/x.json", None),
        ("https://raw.githubusercontent.com/acme/%2E%2E/main/x.json", None),
        ("https://github.com/acme/.../blob/main/x.json", None),
        ("https://github.com/acme/train/blob/main/%ED%A0%80.json", None),  # an escape that is no UTF-8
        ("https://github.com/acme/train/blob/main/\ud800.json", None),  # a lone surrogate, as JSON can carry
        ("https://github.com/acme/train.v2/blob/main/x.json", GitHubFile("acme", "train.v2", "main/x.json")),
        ("http://github.com/acme/train/blob/main/x.json", None),  # not https
        ("https://github.example.com/acme/train/blob/main/x.json", None),  # not GitHub
    ],
)
def test_which_links_name_a_file(url: str, file: GitHubFile | None) -> None:
    """Blob, raw and raw.githubusercontent links name a file; anything else is not fetched."""
    assert github_file(url) == file


@pytest.mark.parametrize(
    ("setup", "failure"),
    [
        ("private", FetchFailure.NOT_FOUND),  # GitHub answers 404 for a private repository without a token
        ("big", FetchFailure.TOO_LARGE),  # over 1 MiB
        ("slow", FetchFailure.TOO_SLOW),  # a byte every 0.5 s against 1 s here
        ("redirect", FetchFailure.NOT_FOUND),  # not followed
        # one deadline for the whole request: a status line or headers trickled a byte every 0,5 s (each byte
        # within the socket's timeout) held the fetch for the trickle's 30 s, above this test's hang guard
        ("status", FetchFailure.TOO_SLOW),
        ("headers", FetchFailure.TOO_SLOW),
    ],
)
@pytest.mark.timeout(20)
def test_fetching_is_bounded(github: FakeGitHub, setup: str, failure: FetchFailure) -> None:
    """Private, too large, too slow or redirected files are not read; each has its reason."""
    github.files["/acme/big/main/x.json"] = b"{" + b" " * (1024 * 1024 + 1) + b"}"
    github.files["/acme/slow/main/x.json"] = b'{"train_batch_size": 8}'
    github.trickle.add("/acme/slow/main/x.json")
    github.redirects["/acme/redirect/main/x.json"] = "http://127.0.0.1:9/elsewhere"
    for stalled in ("status", "headers"):
        github.files[f"/acme/{stalled}/main/x.json"] = b'{"train_batch_size": 8}'
        github.stalls[f"/acme/{stalled}/main/x.json"] = stalled
    with pytest.raises(FetchError) as raised:
        fetch(GitHubFile("acme", setup, "main/x.json"), github.url, seconds=1)
    assert raised.value.failure is failure


def test_a_private_file_is_unfurled_with_the_reason(app: App, api: FakeWebAPI) -> None:
    """A link into a private repository: the unfurl says it was not found or is not public."""
    link = "https://github.com/acme/secret/blob/main/ds.json"
    share_link(app, link)
    assert "nicht öffentlich" in texts(unfurled(api)[link]["blocks"])


SURROGATE = "https://github.com/acme/train/blob/main/\ud800.json"
STALLED = "https://github.com/acme/train/blob/main/stalled.json"
CRASHING = "https://github.com/acme/train/blob/main/crash.json"


@pytest.mark.timeout(20)
def test_each_link_is_unfurled_on_its_own(api: FakeWebAPI, github: FakeGitHub) -> None:
    """A link with a lone surrogate is skipped, one whose headers stall is answered „too slow“ after the deadline,
    one whose check fails on the bot's side gets its own answer: the good link of the same message is unfurled."""
    github.files["/acme/train/main/stalled.json"] = DS_250
    github.stalls["/acme/train/main/stalled.json"] = "headers"
    github.files["/acme/train/main/crash.json"] = b"crashes"  # the stand-in check raises a KeyError
    app = bot(api, github, checks=fake_checks.scripted)
    share_link(app, SURROGATE, STALLED, CRASHING)
    unfurls = unfurled(api)
    assert list(unfurls) == [STALLED, CRASHING]
    assert "stalled.json kam nicht innerhalb von 3 Sekunden von GitHub." in texts(unfurls[STALLED]["blocks"])
    assert "crash.json blieb ungeprüft: Bei mir ist etwas schiefgegangen" in texts(unfurls[CRASHING]["blocks"])
    share_link(app, SURROGATE, LINK)
    second = unfurled(api, call=1)
    assert list(second) == [LINK]
    assert "DeepSpeed: effektive Batch-Größe 256 Sequenzen" in texts(second[LINK]["blocks"])


def test_a_file_not_read_is_not_called_checked(app: App, api: FakeWebAPI) -> None:
    """Below „Konfiguration nicht geprüft“ the unfurl names only where the link points: no „hat … geprüft“ and no
    button to a check that never ran."""
    link = "https://github.com/acme/secret/blob/main/ds.json"
    share_link(app, link)
    blocks = unfurled(api)[link]["blocks"]
    shown = texts(blocks)
    assert "*Konfiguration nicht geprüft*" in shown
    assert "ds.json in acme/secret" in shown
    assert "hat ds.json" not in shown
    assert not [block for block in blocks if block["type"] == "actions"]
