"""Configuration from the environment and ``.env``, read once at start-up, never at import."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from effbatch.bot.document import Visibility
from effbatch.bot.texts import operator as texts
from effbatch.bot.texts import workspaces as mode_texts

SLACK_API_DEFAULT = "https://slack.com/api/"
GITHUB_RAW_DEFAULT = "https://raw.githubusercontent.com/"


class Mode(StrEnum):
    """How the bot talks to Slack."""

    SOCKET = "socket"
    HTTP = "http"
    CONSOLE = "console"


class ConfigError(Exception):
    """Settings are missing or malformed; ``problems`` pairs each variable with what is wrong with it."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        super().__init__("; ".join(f"{variable}: {problem}" for variable, problem in problems))


def _prefixed(value: SecretStr | None, prefix: str, what: str) -> SecretStr | None:
    if value is not None and not value.get_secret_value().startswith(prefix):
        msg = texts.PREFIX_REQUIRED.format(prefix=prefix, what=what)
        raise ValueError(msg)
    return value


class Settings(BaseSettings):
    """Every setting; names are the environment variables, see ``.env.example``."""

    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore", frozen=True)

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = SLACK_API_DEFAULT
    #: Install to any workspace (OAuth v2, HTTP mode): the app's credentials from „Basic Information“.
    slack_client_id: str | None = None
    slack_client_secret: SecretStr | None = None
    #: The redirect URL as registered in the app (…/slack/oauth_redirect); needed when it has several.
    slack_redirect_uri: str | None = None
    #: Where installations, OAuth state and channel profiles live; a SQLite file in the data directory when unset.
    database_url: SecretStr | None = None
    #: The SQLite file's folder; unset: the user's data folder (``default_data_dir``), not wherever the bot starts.
    effbatch_data_dir: Path | None = None
    #: Seconds a request waits for the database (a channel profile, an installation; a write twice as long): Slack
    #: waits 3 s for the whole answer. Beyond, the answer comes without the database and says so.
    effbatch_database_seconds: float = Field(default=1.0, gt=0, le=30)
    #: startup: each bot process migrates the schema as it starts (one at a time); off: a job does it first.
    effbatch_migrate: Literal["startup", "off"] = "startup"
    #: Where links to GitHub files are fetched from (raw files of public repositories; tests point it at a stand-in).
    effbatch_github_raw_url: str = GITHUB_RAW_DEFAULT
    #: HTTP mode: addresses or networks (CIDR) of the proxies in front of the bot, comma-separated; a request from one
    #: of them counts against the address its X-Forwarded-For names, not the proxy's (loopback is always trusted).
    effbatch_trusted_proxies: str = ""
    port: int = Field(default=3000, ge=1, le=65535)
    web_concurrency: int = Field(default=2, ge=1, le=64)
    effbatch_response_type: Visibility = Visibility.IN_CHANNEL
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["plain", "json"] = "plain"
    effbatch_log_command_text: bool = False
    #: ~9 MB per 1.024 cached answers (measured): 4.096 keep a process well inside the manifests' limits.
    effbatch_answer_cache: int = Field(default=1024, ge=0, le=4096)
    #: HTTP mode: seconds after SIGTERM with /readyz at 503 while every request is still answered.
    effbatch_drain_seconds: float = Field(default=5, ge=0, le=60)
    #: Config checks: processes per bot process, seconds and MiB of address space each check may take.
    effbatch_check_processes: int = Field(default=2, ge=1, le=16)
    effbatch_check_seconds: float = Field(default=2, gt=0, le=2.5)
    #: Wall-clock seconds the bot waits for a check's answer (Slack waits 3 s); unset: the CPU seconds + 0,5.
    effbatch_check_wall_seconds: float | None = Field(default=None, gt=0, le=600)
    effbatch_check_memory_mb: int = Field(default=256, ge=128, le=4096)
    #: Socket Mode: seconds without a connection to Slack after which /healthz fails (Kubernetes restarts the pod).
    effbatch_reconnect_seconds: float = Field(default=60, gt=0, le=3600)

    @field_validator("slack_bot_token")
    @classmethod
    def _bot_token(cls, value: SecretStr | None) -> SecretStr | None:
        return _prefixed(value, "xoxb-", texts.BOT_TOKEN_WHERE)

    @field_validator("slack_app_token")
    @classmethod
    def _app_token(cls, value: SecretStr | None) -> SecretStr | None:
        return _prefixed(value, "xapp-", texts.APP_TOKEN_WHERE)

    @field_validator("slack_api_url", "effbatch_github_raw_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            msg = texts.API_URL_REQUIRED
            raise ValueError(msg)
        return value if value.endswith("/") else value + "/"

    @field_validator("effbatch_trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        for item in trusted_networks(value):
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                msg = mode_texts.NOT_A_NETWORK.format(value=item)
                raise ValueError(msg) from None
        return value

    @property
    def trusted_proxies(self) -> list[str]:
        """``EFFBATCH_TRUSTED_PROXIES`` as a list, loopback first (uvicorn's own default)."""
        return ["127.0.0.1", "::1", *trusted_networks(self.effbatch_trusted_proxies)]

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @property
    def data_dir(self) -> Path:
        """``EFFBATCH_DATA_DIR``, or the user's data folder for effbatch."""
        return self.effbatch_data_dir or default_data_dir(os.environ)

    @property
    def multi_workspace(self) -> bool:
        """Installed to any workspace through OAuth: a client id and no bot token of one workspace."""
        return self.slack_client_id is not None and self.slack_bot_token is None

    def default_mode(self) -> Mode:
        """Socket Mode with an app token, HTTP with a bot token or OAuth credentials, else the console."""
        if self.slack_app_token is not None:
            return Mode.SOCKET
        if self.slack_bot_token is not None or self.multi_workspace:
            return Mode.HTTP
        return Mode.CONSOLE

    def require_for(self, mode: Mode, chosen: bool = True) -> None:
        """Raise ``ConfigError`` naming every setting ``mode`` needs and lacks (OAuth: HTTP mode only). A mode not
        ``chosen`` (inferred from a bot token alone) names both ways on: the signing secret or the app token."""
        if not chosen and mode is Mode.HTTP and not self.multi_workspace and self.slack_signing_secret is None:
            raise ConfigError(
                [("SLACK_SIGNING_SECRET", mode_texts.FOR_HTTP), ("SLACK_APP_TOKEN", mode_texts.FOR_SOCKET_MODE)]
            )
        oauth = mode is Mode.HTTP and self.multi_workspace
        needed = {
            Mode.SOCKET: ("slack_bot_token", "slack_app_token"),
            Mode.HTTP: ("slack_client_secret", "slack_signing_secret")
            if oauth
            else ("slack_bot_token", "slack_signing_secret"),
            Mode.CONSOLE: (),
        }[mode]
        missing = [name.upper() for name in needed if getattr(self, name) is None]
        if missing:
            raise ConfigError([(name, texts.MISSING_FOR_MODE.format(mode=mode.value)) for name in missing])
        if self.slack_client_id is not None and self.slack_bot_token is not None and mode is not Mode.CONSOLE:
            raise ConfigError([("SLACK_CLIENT_ID", texts.ONE_WORKSPACE_OR_ALL)])
        if mode is Mode.SOCKET and self.slack_client_id is not None:
            raise ConfigError([("SLACK_CLIENT_ID", texts.OAUTH_NEEDS_HTTP)])


def trusted_networks(value: str) -> list[str]:
    return [item.strip() for item in value.split(",") if item.strip()]


def default_data_dir(environ: Mapping[str, str]) -> Path:
    """The user's data folder for effbatch, as the XDG base directories define it (what platformdirs' user_data_dir
    gives on Linux): ``$XDG_DATA_HOME/effbatch``, else ``~/.local/share/effbatch``."""
    base = environ.get("XDG_DATA_HOME", "")
    root = (
        Path(base) if base and Path(base).is_absolute() else Path(environ.get("HOME") or Path.home()) / ".local/share"
    )
    return root / "effbatch"


def load_settings(env_file: Path | None) -> Settings:
    """Settings from the environment, then ``env_file``; ``ConfigError`` naming every bad one."""
    try:
        return Settings(_env_file=env_file)
    except ValidationError as error:
        problems = []
        for detail in error.errors():
            variable = str(detail["loc"][0]).upper() if detail["loc"] else "?"
            if detail["type"] == "value_error":
                problem = str(detail["ctx"]["error"])
            else:
                problem = texts.INVALID_VALUE.format(
                    value=_shown(variable, detail.get("input")), allowed=texts.ALLOWED.get(variable, "")
                )
            problems.append((variable, problem))
        raise ConfigError(problems) from None


def _shown(variable: str, value: object) -> str:
    """Never echo a secret back."""
    if "TOKEN" in variable or "SECRET" in variable:
        return texts.HIDDEN
    return f"„{value}“"
