"""Channel profiles as documents: shown, stored, deleted, refused, and the note atop an answer that used one."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from effbatch.bot.document import Answer, AnswerKind, Bullet, Document, Note, Section, Visibility
from effbatch.bot.rendering.formatting import number
from effbatch.bot.storage.profiles import ChannelProfile
from effbatch.bot.texts import profiles as texts
from effbatch.bot.texts.glossary import list_de
from effbatch.core.memory.gpus import find_gpu
from effbatch.core.profile import GPU_MODEL, ProfileError


def settings_text(settings: Iterable[tuple[str, str]]) -> str:
    """„64 GPUs, TP 8 und GPU-Modell H100 SXM“."""
    return list_de(setting_text(key, value) for key, value in settings)


def setting_text(key: str, value: str) -> str:
    """One setting: a count as a number; the GPU model by its name (``h100`` → H100 SXM), a TPU as the accelerator."""
    if key != GPU_MODEL:
        return texts.SETTING[key].format(value=number(int(value)))
    spec = find_gpu(value)
    if spec is None:
        return texts.SETTING[key].format(value=value)
    return (texts.SETTING_CHIP if spec.chip else texts.SETTING[key]).format(value=spec.title)


def when(profile: ChannelProfile) -> str:
    """„14.03.2026 um 09:05 UTC“."""
    return texts.WHEN.format(date=profile.set_at.strftime("%d.%m.%Y"), time=profile.set_at.strftime("%H:%M"))


def profile_note(profile: ChannelProfile, applied: Iterable[tuple[str, str]]) -> Note:
    """„Aus dem Channel-Profil: 64 GPUs und TP 8 – gesetzt von @… am …“ – atop an answer that used it."""
    text = texts.FROM_PROFILE.format(settings=settings_text(applied), user="{user}", when=when(profile))
    return Note(text, user=profile.set_by)


def with_note(answer: Answer, note: Note) -> Answer:
    """The answer with ``note`` before its parts."""
    return Answer(answer.kind, replace(answer.document, parts=(note, *answer.document.parts)))


def shown(profile: ChannelProfile | None, visibility: Visibility) -> Answer:
    """``/effbatch cluster``: what the profile holds, who set it and when; or how to set one."""
    if profile is None:
        return _answer(texts.NONE_TITLE, texts.NONE_SUMMARY, Visibility.EPHEMERAL, texts.NONE_HOW)
    summary = texts.SHOWN_SUMMARY.format(settings=settings_text(profile.settings))
    return _profile_answer(texts.SHOWN_TITLE, summary, profile, visibility)


def stored(profile: ChannelProfile, visibility: Visibility) -> Answer:
    """The answer to ``/effbatch cluster gpus=64 …``: what was stored, for the channel to see."""
    summary = texts.SET_SUMMARY.format(settings=settings_text(profile.settings))
    return _profile_answer(texts.SET_TITLE, summary, profile, visibility)


def deleted(existed: bool, visibility: Visibility) -> Answer:
    if not existed:
        return _answer(texts.NONE_TITLE, texts.NONE_SUMMARY, Visibility.EPHEMERAL, texts.NOTHING_TO_DELETE)
    return _answer(texts.DELETED_TITLE, texts.DELETED_SUMMARY, visibility, texts.DELETED)


def unavailable() -> Answer:
    return _answer(texts.UNAVAILABLE_TITLE, texts.UNAVAILABLE_TITLE, Visibility.EPHEMERAL, texts.UNAVAILABLE)


def refused(error: ProfileError) -> Answer:
    """Every problem of a profile command, one bullet each, only to whoever typed it."""
    lines = tuple(Bullet(_problem_text(problem.kind, problem.text, problem.ctx or {})) for problem in error.problems)
    document = Document(
        texts.ERROR_TITLE,
        texts.ERROR_SUMMARY,
        Visibility.EPHEMERAL,
        (Section(lines=lines), Note(texts.ERROR_EXAMPLE)),
    )
    return Answer(AnswerKind.INPUT_ERROR, document)


def _problem_text(kind: str, text: str, ctx: Mapping[str, object]) -> str:
    values = {key: number(value) if isinstance(value, int) else value for key, value in ctx.items()}
    return texts.PROBLEMS[kind].format_map({"text": text, "allowed": texts.ALLOWED_KEYS} | values)  # a GPU's own list


def _profile_answer(title: str, summary: str, profile: ChannelProfile, visibility: Visibility) -> Answer:
    lines: list[str | Bullet] = [Bullet(setting_text(k, v)) for k, v in profile.settings]
    parts: list[Section | Note] = [Section(lines=tuple(lines))]
    parts += [
        Note(texts.SET_BY.format(user="{user}", when=when(profile)), user=profile.set_by),
        Note(texts.USED_AS_DEFAULTS),
        Note(texts.HOW_TO_CHANGE),
    ]
    return Answer(AnswerKind.PROFILE, Document(title, summary, visibility, tuple(parts)))


def _answer(title: str, summary: str, visibility: Visibility, text: str) -> Answer:
    return Answer(AnswerKind.PROFILE, Document(title, summary, visibility, (Section(lines=(text,)),)))
