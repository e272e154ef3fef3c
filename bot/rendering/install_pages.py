"""The pages a workspace admin sees while installing effbatch, in German: the install page with its link to Slack,
the page after Slack's redirect, and the page when it failed. Pure HTML strings; Bolt's OAuth flow serves them."""

from __future__ import annotations

from html import escape

from effbatch.bot.texts import workspaces as texts

_PAGE = """<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">{head}
<title>{title}</title>
<style>body {{ padding: 10px 15px; font-family: verdana, sans-serif; text-align: center; }}</style>
</head>
<body>
<h2>{title}</h2>
<p>{body}</p>
</body>
</html>
"""


def install_page(authorize_url: str) -> str:
    """The install page: what effbatch is, and the link to Slack's consent page."""
    body = f'{escape(texts.INSTALL_TEXT)}</p>\n<p><a href="{escape(authorize_url)}">{escape(texts.INSTALL_LINK)}</a>'
    return _PAGE.format(head="", title=escape(texts.INSTALL_TITLE), body=body)


def installed_page(team_id: str | None, app_id: str | None) -> str:
    """After Slack's redirect: thanks, and on to the Slack app (or the browser)."""
    app = f"slack://app?team={team_id}&id={app_id}" if team_id and app_id else "slack://open"
    browser = f"https://app.slack.com/client/{team_id or ''}"
    body = texts.INSTALLED_TEXT.format(app=escape(app), browser=escape(browser))
    head = f'\n<meta http-equiv="refresh" content="0; URL={escape(app)}">'
    return _PAGE.format(head=head, title=escape(texts.INSTALLED_TITLE), body=body)


def failed_page(install_path: str, reason: str) -> str:
    """The installation failed: try again, and Slack's reason (as Slack names it)."""
    body = texts.FAILED_TEXT.format(install=escape(install_path), reason=escape(reason))
    return _PAGE.format(head="", title=escape(texts.FAILED_TITLE), body=body)
