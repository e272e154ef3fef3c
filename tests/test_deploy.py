"""The deploy/ artefacts, each checked by its ecosystem's own validator, plus what the issue requires of them."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import jsonschema
import pytest
import yaml

from effbatch.bot.slack.check_listeners import CHECK_SHORTCUT
from effbatch.bot.slack.workspaces import BOT_SCOPES, REDIRECT_PATH
from effbatch.bot.texts.checks import SHORTCUT_NAME

import slack_payloads
from bot_process import BIN, clean_env
from fake_slack import BOT_TOKEN, FakeWebAPI
from slack_checks import all_text, assert_valid_message
from slack_signing import signed_headers

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
#: Slack's official manifest schema (MIT), vendored so a clone validates anywhere; see test_vendored_schema.
SCHEMA = Path(__file__).parent / "data" / "slack-manifest.schema.1.0.0.json"
SHARED_SCHEMA = ROOT.parent / "shared" / "slack" / "manifest-schema" / "manifest.schema.1.0.0.json"
MANIFESTS = [DEPLOY / "slack-manifest.yaml", DEPLOY / "slack-manifest.http.yaml"]


def run(*command: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=120)


# --- Slack app manifest -------------------------------------------------------------------


def test_vendored_schema_is_slacks() -> None:
    """The vendored schema is byte-identical to the copy in shared/ wherever that exists."""
    if SHARED_SCHEMA.is_file():
        assert SCHEMA.read_bytes() == SHARED_SCHEMA.read_bytes()
    assert json.loads(SCHEMA.read_text())["$schema"].startswith("http://json-schema.org/")


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_manifest_validates_against_slacks_schema(path: Path) -> None:
    """Both manifests pass Slack's official schema and declare what effbatch uses, and nothing more."""
    manifest = yaml.safe_load(path.read_text())
    jsonschema.validate(manifest, json.loads(SCHEMA.read_text()))
    features, settings = manifest["features"], manifest["settings"]
    assert [c["command"] for c in features["slash_commands"]] == ["/effbatch"]
    assert "Batch-Größe" in features["slash_commands"][0]["description"]
    assert features["bot_user"]["display_name"] == "effbatch"
    assert features["app_home"]["home_tab_enabled"] is True
    assert manifest["oauth_config"]["scopes"]["bot"] == list(BOT_SCOPES)  # what the OAuth flow asks for, too
    assert features["unfurl_domains"] == ["github.com", "raw.githubusercontent.com"]
    [shortcut] = features["shortcuts"]
    assert (shortcut["type"], shortcut["callback_id"]) == ("message", CHECK_SHORTCUT)
    assert shortcut["name"] == SHORTCUT_NAME  # what the help and App Home tell people to click
    events = ["app_home_opened", "app_uninstalled", "tokens_revoked", "link_shared"]
    assert settings["event_subscriptions"]["bot_events"] == events
    assert settings["interactivity"]["is_enabled"] is True
    http = path.name.endswith(".http.yaml")
    assert settings["socket_mode_enabled"] is not http
    if http:
        urls = [features["slash_commands"][0]["url"], settings["interactivity"]["request_url"]]
        urls.append(settings["event_subscriptions"]["request_url"])
        assert all(url.endswith("/slack/events") for url in urls)
        [redirect] = manifest["oauth_config"]["redirect_urls"]  # the path effbatch-bot serves (REDIRECT_PATH)
        assert redirect.endswith(REDIRECT_PATH)
        assert settings["org_deploy_enabled"] is True


def test_schema_rejects_a_broken_manifest() -> None:
    """The check can fail: a slash command without a leading slash is refused by the schema."""
    manifest = yaml.safe_load(MANIFESTS[0].read_text())
    manifest["features"]["slash_commands"][0]["command"] = "effbatch"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(manifest, json.loads(SCHEMA.read_text()))


# --- container image ----------------------------------------------------------------------


def test_dockerfile_passes_hadolint() -> None:
    """hadolint at warning level finds nothing."""
    result = run(BIN / "hadolint", "--failure-threshold", "warning", DEPLOY / "Dockerfile")
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_catches_a_bad_dockerfile(tmp_path: Path) -> None:
    """The check can fail: an unpinned base image and root user are reported."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install gunicorn\nCMD gunicorn app\n")
    assert run(BIN / "hadolint", "--failure-threshold", "warning", bad).returncode != 0


def test_dockerfile_shape() -> None:
    """Multi-stage, pinned slim base, non-root user, exec-form entrypoint, /healthz check, no secrets."""
    lines = [line.strip() for line in (DEPLOY / "Dockerfile").read_text().splitlines()]
    froms = [line for line in lines if line.startswith("FROM ")]
    assert len(froms) == 2
    assert all("-slim" in line and ":3.11." in line for line in froms)
    assert "USER 10001" in lines
    assert 'ENTRYPOINT ["effbatch-bot"]' in lines
    assert any(line.startswith("HEALTHCHECK") for line in lines)
    assert "/healthz" in (DEPLOY / "Dockerfile").read_text()
    assert not any(word in (DEPLOY / "Dockerfile").read_text() for word in ("xoxb-", "xapp-", "SIGNING_SECRET="))
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ignored[1] == "*"  # everything is excluded by default, .env included


# --- Kubernetes -----------------------------------------------------------------------------

K8S = sorted((DEPLOY / "k8s").glob("*.yaml"))


def test_kubernetes_manifests_validate_strictly() -> None:
    """kubernetes-validate --strict accepts every manifest."""
    result = run(BIN / "kubernetes-validate", "--strict", *K8S)
    assert result.returncode == 0, result.stdout + result.stderr


def test_kubernetes_validate_catches_a_typo(tmp_path: Path) -> None:
    """The check can fail: an unknown field is an error under --strict."""
    broken = yaml.safe_load((DEPLOY / "k8s" / "service.yaml").read_text())
    broken["spec"]["portz"] = broken["spec"].pop("ports")
    path = tmp_path / "service.yaml"
    path.write_text(yaml.safe_dump(broken))
    assert run(BIN / "kubernetes-validate", "--strict", path).returncode != 0


def load_k8s() -> dict[str, dict]:
    documents = [yaml.safe_load(path.read_text()) for path in K8S]
    return {f"{d['kind']}/{d['metadata']['name']}": d for d in documents}


def test_kubernetes_deployments_are_hardened() -> None:
    """Replicas, probes, resources, non-root, read-only root, no privilege escalation, secrets from a Secret."""
    resources = load_k8s()
    assert {"Service/effbatch", "HorizontalPodAutoscaler/effbatch-http", "PodDisruptionBudget/effbatch-http"} <= set(
        resources
    )
    for name in ("Deployment/effbatch-http", "Deployment/effbatch-socket"):
        spec = resources[name]["spec"]
        pod = spec["template"]["spec"]
        container = pod["containers"][0]
        assert 2 <= spec["replicas"] <= 10
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert container["securityContext"]["readOnlyRootFilesystem"] is True
        assert container["securityContext"]["allowPrivilegeEscalation"] is False
        assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
        assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
        assert {"requests", "limits"} <= set(container["resources"])
        secrets = [e for e in container["env"] if "valueFrom" in e]
        assert {e["name"] for e in secrets} >= {"SLACK_BOT_TOKEN"}
        assert all("secretKeyRef" in e["valueFrom"] for e in secrets)
        assert not any("TOKEN" in e["name"] or "SECRET" in e["name"] for e in container["env"] if "value" in e)
    assert resources["HorizontalPodAutoscaler/effbatch-http"]["spec"]["minReplicas"] >= 2
    http = resources["Deployment/effbatch-http"]["spec"]["template"]["spec"]
    container = http["containers"][0]
    drain = next(float(e["value"]) for e in container["env"] if e["name"] == "EFFBATCH_DRAIN_SECONDS")
    pre_stop = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    # Endpoints drop the pod during preStop, the drain answers what still arrives, in-flight requests get 20 s.
    assert http["terminationGracePeriodSeconds"] > pre_stop + drain + 20


# --- AWS Lambda -------------------------------------------------------------------------------


def test_sam_template_passes_cfn_lint() -> None:
    """cfn-lint accepts the SAM template."""
    result = run(BIN / "cfn-lint", DEPLOY / "aws" / "template.yaml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_cfn_lint_catches_a_bad_template(tmp_path: Path) -> None:
    """The check can fail: a memory size below Lambda's minimum of 128 MB is reported (E3034)."""
    broken = (DEPLOY / "aws" / "template.yaml").read_text().replace("MemorySize: 256", "MemorySize: 1")
    path = tmp_path / "template.yaml"
    path.write_text(broken)
    assert run(BIN / "cfn-lint", path).returncode != 0


LAMBDA_SECRET = "lambda-signing-secret"
INVOKE = """
import json, sys, types
from effbatch.bot.serving.aws_lambda import handler
arn = "arn:aws:lambda:eu-central-1:1:function:effbatch"
context = types.SimpleNamespace(function_name="effbatch", invoked_function_arn=arn)
for line in sys.stdin:
    print(json.dumps(handler(json.loads(line), context)), flush=True)
"""


def api_gateway_event(body: str, headers: dict[str, str]) -> dict:
    """An API Gateway HTTP API (payload format 2.0) event for POST /slack/events."""
    return {
        "version": "2.0",
        "routeKey": "POST /slack/events",
        "rawPath": "/slack/events",
        "rawQueryString": "",
        "headers": {k.lower(): v for k, v in headers.items()},
        "requestContext": {"http": {"method": "POST", "path": "/slack/events", "sourceIp": "127.0.0.1"}},
        "body": base64.b64encode(body.encode()).decode(),
        "isBase64Encoded": True,
    }


def test_lambda_handler_answers_a_signed_event(tmp_path: Path) -> None:
    """The Lambda handler (configured from its environment) answers a signed command, refuses a forged one."""
    body = urlencode(slack_payloads.command("8 64 4 4096", "https://hooks.slack.com/commands/1"))
    signed = api_gateway_event(body, signed_headers(LAMBDA_SECRET, body))
    forged = api_gateway_event(body, signed_headers("wrong", body, timestamp=int(time.time())))
    with FakeWebAPI() as api:
        env = clean_env(SLACK_BOT_TOKEN=BOT_TOKEN, SLACK_SIGNING_SECRET=LAMBDA_SECRET, SLACK_API_URL=api.url)
        result = subprocess.run(
            [sys.executable, "-c", INVOKE],
            input=f"{json.dumps(signed)}\n{json.dumps(forged)}\n",
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        assert len(api.method_calls("auth.test")) == 1, "one app per cold start"
    assert result.returncode == 0, result.stderr
    answered, refused = (json.loads(line) for line in result.stdout.splitlines())
    assert answered["statusCode"] == 200
    payload = json.loads(answered["body"])
    assert_valid_message(payload)
    assert payload["response_type"] == "in_channel"
    assert "B = b · d · a = 8 × 64 × 4 = 2.048" in all_text(payload)
    assert refused["statusCode"] == 401


def test_the_images_are_the_teams_own() -> None:
    """Every effbatch image the manifests and the Dockerfile name is one the team builds and pushes: a placeholder
    registry (the reserved .invalid domain), at the version pyproject.toml gives – no registry the project does not
    have. (PostgreSQL's and Python's official images are what they say.)"""
    import re
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    files = [*sorted((ROOT / "deploy" / "k8s").glob("*.yaml")), ROOT / "deploy" / "Dockerfile"]
    images = [image for path in files for image in re.findall(r"(?:image: |-t )(\S+)", path.read_text())]
    assert images
    ours = {image for image in images if not image.startswith(("python:", "docker.io/library/postgres:"))}
    assert ours == {f"registry.example.invalid/effbatch:{version}"}
