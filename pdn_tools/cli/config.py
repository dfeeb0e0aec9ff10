"""Configuration files: ``[tool.pdn]`` in ``pyproject.toml``, or a ``pdn.toml``.

Found as ruff finds its own: from the folder of the paths given (their common
folder; the current folder for standard input) upwards, the first folder that holds
a ``pdn.toml`` (settings at its top level) or a ``pyproject.toml`` with a
``[tool.pdn]`` table; ``pdn.toml`` wins when a folder holds both.  ``--config PATH``
names the file instead, ``--config 'KEY = VALUE'`` overrides one setting (above any
file), and ``--isolated`` reads no file.  Options given on the command line override
every setting.

A setting is named like the long option it stands for (``fail-on``, ``max-depth``);
``rules`` is a table of ``--rule`` options.  A command takes the settings it has an
option for and leaves the others (``fail-on`` means nothing to ``pdn stats``).
Unknown settings and bad values are usage errors (exit status 2), named with the file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, time
from typing import Any

import click

from pdn_tools.atomic import printable

#: The settings a file may hold: name → the command option (parameter) it sets.
SETTINGS: dict[str, str] = {
    "select": "select",
    "ignore": "ignore",
    "fail-on": "fail_on",
    "variant": "variant",
    "dialect": "dialect",
    "strict": "strict",
    "encoding": "encoding",
    "max-game-size": "max_game_size",
    "max-depth": "max_depth",
    "max-expansion": "max_expansion",
    "max-members": "max_members",
    "exclude": "exclude",
    "extend-exclude": "extend_exclude",
    "respect-gitignore": "respect_gitignore",
    "rules": "rule",
}
LIMITS = frozenset({"max-game-size", "max-depth", "max-expansion", "max-members"})
"""Settings that bound the work of one input: a file may lower them, never raise them
above their defaults (the file may come with untrusted input; docs/security.md)."""
WHOLE = "a whole number"
"""What a limit must be in TOML: an integer, unquoted (``max-depth = 50``)."""
YES_NO = "true or false"
"""What a yes/no setting must be in TOML: a boolean (``strict = true``)."""
TEXT = "a string"
TEXTS = "a string or an array of strings"
NAME_OR_NUMBER = "a string or a whole number"
KINDS: dict[str, str] = {
    **dict.fromkeys(LIMITS, WHOLE),
    "select": TEXTS,
    "ignore": TEXTS,
    "fail-on": TEXT,
    "variant": NAME_OR_NUMBER,  # a name or a GameType number
    "dialect": TEXT,
    "encoding": TEXT,
    "strict": YES_NO,
    "respect-gitignore": YES_NO,
}
"""What the value of a setting must be in TOML, checked before the command's option
converts it: click's conversions take text from the command line, and would let a
quoted number pass as a limit or fail with a traceback on a number for a yes/no
option.  (``exclude``, ``extend-exclude`` and ``rules`` are checked where they are
read.)"""
MAX_CONFIG_BYTES = 1 << 20
"""The largest configuration file read (1 MiB)."""
PDN_TOML = "pdn.toml"
PYPROJECT = "pyproject.toml"


class ConfigError(click.ClickException):
    """A configuration file or setting that cannot be used (exit status 2)."""

    exit_code = 2
    command = "pdn"
    """The command that read it, as messages name it (``pdn validate``)."""


@dataclass
class Config:
    """The settings in force: from a file (``path``, None when none) and overrides.

    ``base`` is the folder exclusion patterns of the file are relative to.
    """

    path: str | None = None
    base: str = field(default_factory=os.getcwd)
    values: dict[str, Any] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)
    """Where each setting came from, for messages (``pyproject.toml``, ``--config``)."""

    def where(self, key: str) -> str:
        """Where setting *key* came from, as messages name it."""
        return self.origin.get(key, "--config")


def _table(path: str) -> dict[str, Any] | None:
    """The pdn settings in the file at *path*: the whole of a ``pdn.toml``, the
    ``[tool.pdn]`` table of any other file (None when it has none).

    The file may come with untrusted input: anything but a regular file of at most
    :data:`MAX_CONFIG_BYTES` of UTF-8 TOML is refused with one line.
    """
    shown = printable(path)
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ConfigError(f"{shown}: not a regular file")
            raw = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{shown}: {exc.strerror or exc}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{shown}: larger than {MAX_CONFIG_BYTES >> 20} MiB; not a configuration")
    data = _parse(raw, shown)
    if os.path.basename(path) == PDN_TOML:
        return data
    tool = data.get("tool")
    table = tool.get("pdn") if isinstance(tool, dict) else None
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.pdn] is not a table")
    return table


def _parse(raw: bytes, where: str) -> dict[str, Any]:
    """The TOML document *raw*; one line saying why it cannot be read otherwise."""
    import tomllib  # only when there is a file to read (start-up time)

    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{where}: not valid TOML (nested too deeply)") from None


def _found(candidate: str) -> bool:
    """Whether a configuration file lies at *candidate*, a place the search looks at
    (beside the inputs, so a file there may have come with them): False when nothing
    is there.  Anything there but a regular file ends the run with one line: a
    symbolic link is not followed (it could lead to any file of the machine, which the
    error messages would then quote), nor is a FIFO or a device opened."""
    try:
        mode = os.lstat(candidate).st_mode
    except OSError:
        return False
    shown = printable(_shown(candidate))
    if stat.S_ISLNK(mode):
        raise ConfigError(
            f"{shown}: a symbolic link; a configuration file found beside "
            "the inputs is read only as a regular file (name it with --config PATH to "
            "follow the link)"
        )
    if not stat.S_ISREG(mode):
        raise ConfigError(f"{shown}: not a regular file")
    return True


def find(start: str) -> str | None:
    """The configuration file for paths below *start*, or None."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, PDN_TOML)
        if _found(candidate):
            return candidate
        candidate = os.path.join(folder, PYPROJECT)
        if _found(candidate) and _table(candidate) is not None:
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def start_folder(paths: Iterable[str]) -> str:
    """The folder the search for a configuration file starts from: the common folder
    of *paths* (the current folder for standard input or none)."""
    folders = []
    for path in paths:
        if path == "-":
            continue
        absolute = os.path.abspath(path)
        folders.append(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))
    if not folders:
        return os.getcwd()
    try:
        return os.path.commonpath(folders)
    except ValueError:  # paths on different drives
        return os.getcwd()


def _toml_kind(value: object) -> str:
    """What TOML made of *value*, as messages name it (``a TOML string``)."""
    if isinstance(value, bool):
        return "a TOML boolean"
    if isinstance(value, int):
        return "a TOML integer"
    if isinstance(value, float):
        return "a TOML float"
    if isinstance(value, str):
        return "a TOML string"
    if isinstance(value, list):
        other = next((item for item in value if not isinstance(item, str)), None)
        if other is None and value:
            return "a TOML array of strings"
        return "a TOML array" if other is None else f"a TOML array holding {_toml_kind(other)}"
    if isinstance(value, dict):
        return "a TOML table"
    return "a TOML date or time"


def _of_kind(value: object, kind: str) -> bool:
    """Whether *value* (as TOML read it) is of *kind* (one of :data:`KINDS`' values)."""
    whole = isinstance(value, int) and not isinstance(value, bool)
    if kind == WHOLE:
        return whole
    if kind == YES_NO:
        return isinstance(value, bool)
    if kind == TEXT:
        return isinstance(value, str)
    if kind == TEXTS:
        return isinstance(value, str) or (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        )
    if kind == NAME_OR_NUMBER:
        return isinstance(value, str) or whole
    raise AssertionError(f"unknown kind {kind!r}")


def _check(values: dict[str, Any], where: str) -> None:
    """Refuse an unknown setting, or a value not of its setting's kind (:data:`KINDS`),
    with one line naming *where* it was written, the setting and what was found."""
    for key, value in values.items():
        if key not in SETTINGS:
            known = ", ".join(SETTINGS)
            raise ConfigError(f"{where}: unknown setting {key!r} (known: {known})")
        kind = KINDS.get(key)
        if kind is not None and not _of_kind(value, kind):
            shown = value.isoformat() if isinstance(value, (date, time)) else repr(value)
            raise ConfigError(f"{where}: {key}: {shown} is not {kind} (found {_toml_kind(value)})")
    rules = values.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise ConfigError(f"{where}: 'rules' must be a table of NAME = VALUE")


def load(paths: Iterable[str], config: tuple[str, ...], isolated: bool) -> Config:
    """The settings for a command reading *paths*, given ``--config`` and ``--isolated``."""
    files = [value for value in config if _names_file(value)]
    overrides = [value for value in config if not _names_file(value)]
    if len(files) > 1:
        raise ConfigError("--config names more than one file")
    if files and isolated:
        raise ConfigError("--config with a file cannot be used with --isolated")
    out = Config()
    path = files[0] if files else None if isolated else find(start_folder(paths))
    if path is not None:
        if not os.path.isfile(path):
            if os.path.exists(path):
                raise ConfigError(f"{printable(path)}: not a regular file")
            raise ConfigError(f"{printable(path)}: no such configuration file")
        table = _table(path)
        if table is None:
            raise ConfigError(f"{path}: has no [tool.pdn] table")
        shown = _shown(path)
        where = shown if os.path.basename(path) == PDN_TOML else f"{shown} [tool.pdn]"
        _check(table, where)
        out.path = path
        out.base = os.path.dirname(os.path.abspath(path))
        out.values.update(table)
        out.origin.update(dict.fromkeys(table, where))
    for text in overrides:
        import tomllib  # see _parse

        try:
            value = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError):
            raise ConfigError(
                f"--config {text!r}: neither a configuration file nor KEY = VALUE"
            ) from None
        _check(value, f"--config {text!r}")
        if "rules" in value and "rules" in out.values:
            value["rules"] = {**out.values["rules"], **value["rules"]}
        out.values.update(value)
        out.origin.update(dict.fromkeys(value, "--config"))
    return out


def _shown(path: str) -> str:
    """*path* as messages show it: relative when it lies below the current folder."""
    relative = os.path.relpath(os.path.abspath(path))
    return path if relative.startswith("..") else relative


def _names_file(value: str) -> bool:
    """Whether a ``--config`` value names a file rather than a KEY = VALUE override."""
    return "=" not in value or os.path.isfile(value)
