"""Which files a command reads, found the way linters such as ruff find them.

Paths named on the command line are always read (a zip archive: its ``.pdn``
members; ``archive.zip:inner.pdn``, as reports name a member: that member).
Folders are walked in sorted order, each folder's files before its subfolders, for
files whose names end in ``.pdn`` in any letter case — also compressed
(``.pdn.gz``, ``.pdn.bz2``, ``.pdn.xz``) — and for ``.zip`` archives of such files.
While walking:

* entries matching an exclusion pattern are skipped: by default hidden entries
  (``.git``, ``.venv``, ``.tox``, …) and the usual tool folders (``venv``,
  ``node_modules``, ``__pycache__``, ``site-packages``, …); a folder holding a
  ``pyvenv.cfg`` is a virtual environment and skipped whatever its name.  Patterns
  are written as in ``.gitignore`` and matched relative to the folder they were
  given for (the current folder on the command line, the configuration file's
  folder in a configuration file);
* files that ``.gitignore`` files (and ``.git/info/exclude``) ignore are skipped,
  with git's rules, through the `pathspec` library — unless turned off;
* symbolic links are followed, but a folder is walked once: a link back to a folder
  above it (a loop) is reported, a second way into a folder already walked is not
  taken, and a file reached twice is read once;
* a FIFO, socket or device named like a PDN file is skipped with a note (opening a
  FIFO would wait forever); an entry that cannot be read (permission denied, a link
  to nothing, a link loop) is returned with the reason, so that the command reports
  it (E14) and goes on with the other files.

File names with bytes that are not UTF-8 keep them for opening; reports show them
with the bytes escaped (``caf\\xe9.pdn``).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from pdn_tools.atomic import printable
from pdn_tools.pdn.archives import (
    MAX_MEMBERS,
    ArchiveError,
    TooManyMembers,
    is_zip_name,
    member_name,
    member_path,
    member_problem,
    path_of_name,
    split_member,
    zip_members,
)

if TYPE_CHECKING:  # pathspec is imported when patterns are first compiled (start-up time)
    from pathspec import GitIgnoreSpec


class InputError(Exception):
    """A path named on the command line that cannot be read (exit status 2)."""


#: Entries skipped while walking unless the exclusions are replaced (``--exclude``).
DEFAULT_EXCLUDE = (
    ".*",
    "venv",
    "node_modules",
    "__pycache__",
    "__pypackages__",
    "site-packages",
    "_darcs",
    "CVS",
)
#: Endings of the files read while walking (compared in lower case).
PDN_ENDINGS = (".pdn", ".pdn.gz", ".pdn.bz2", ".pdn.xz")


class PatternError(ValueError):
    """An exclusion pattern that is not ``.gitignore`` syntax (``!`` alone, a ``\\``
    at the end); the message names it."""


def _compiled(lines: Iterable[str]) -> GitIgnoreSpec:
    """*lines* compiled as ``.gitignore`` patterns, matched by RE2.

    pathspec turns each pattern into a regular expression; Python's own engine
    backtracks, and a pattern of many wildcards (``****…*.tmp``, ``*a*a*a…b``) takes
    exponential time on a name it does not match — a ``pdn.toml`` or a ``.gitignore``
    inside a folder handed to the command (untrusted input) would hang the walk.  RE2
    (``google-re2``, a dependency) matches in time linear in the name, whatever the
    pattern.
    """
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines, backend="re2")


def _pattern_problem(pattern: str) -> str | None:
    """Why *pattern* is not ``.gitignore`` syntax, or None when it is."""
    try:
        _compiled([pattern])
    except (ValueError, re.error) as exc:
        return str(exc.__cause__ or exc)
    return None


@dataclass(frozen=True)
class Patterns:
    """Exclusion patterns (``.gitignore`` syntax) and the folder they are relative to.

    A pattern that is not valid raises :class:`PatternError` here, when the options
    are read, before any file is.  The patterns are compiled when a folder is first
    walked (:attr:`spec`), so that a run that names files only does not import the
    matcher; the default exclusions, known to be valid, are not checked here.
    """

    patterns: tuple[str, ...]
    base: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", os.path.abspath(self.base))
        if self.patterns != DEFAULT_EXCLUDE:
            self.spec  # noqa: B018 - compiled now: a bad pattern is an options error

    @cached_property
    def spec(self) -> GitIgnoreSpec:
        """The compiled patterns."""
        try:
            return _compiled(self.patterns)
        except (ValueError, re.error):
            for pattern in self.patterns:
                reason = _pattern_problem(pattern)
                if reason is not None:
                    raise PatternError(f"{pattern!r} is not a valid pattern: {reason}") from None
            raise

    def base_for(self, root: str) -> str:
        """The folder the patterns are matched from below the walked folder *root*:
        their own folder when *root* lies in it, else *root* itself."""
        return self.base if _within(root, self.base) else root


def _within(absolute: str, folder: str) -> bool:
    """Whether *absolute* is *folder* or lies below it."""
    return absolute == folder or absolute.startswith(folder.rstrip(os.sep) + os.sep)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _relative(absolute: str, base: str, is_dir: bool) -> str:
    """*absolute* (below *base*) relative to *base* in ``/`` form, a folder with a
    trailing ``/``, as ``.gitignore`` patterns are matched.

    The bytes of a name that are not UTF-8 (kept by Python as lone surrogates) become
    U+FFFD: the matcher takes UTF-8 text, and no pattern, itself text, names them.
    """
    rel = absolute[len(base.rstrip(os.sep)) + 1 :]
    if os.sep != "/":
        rel = rel.replace(os.sep, "/")
    if not rel.isascii():
        rel = _SURROGATE.sub("\ufffd", rel)
    return rel + "/" if is_dir else rel


@dataclass
class WalkOptions:
    """How folders are walked: exclusions, whether ``.gitignore`` files count, whether
    symbolic links may lead out of the folder named, and how many members a zip
    archive may have."""

    exclude: list[Patterns] = field(
        default_factory=lambda: [Patterns(DEFAULT_EXCLUDE, os.getcwd())]
    )
    respect_gitignore: bool = True
    follow_links: bool = False
    """Follow symbolic links that lead out of the folder named (``--follow-links``);
    without it such a link is reported (W39) and not read."""
    max_members: int = MAX_MEMBERS
    schemes: tuple[str, ...] = ()
    """URL schemes read beyond the data schemes (``--allow-scheme``; see
    :mod:`pdn_tools.run.storage`)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A file to read: the path that opens it, the name reports show, and the reason
    it is not read (None when it is), reported under ``code``: E14 (cannot be read),
    E11 (over a limit) or W39 (a symbolic link out of the folder, not followed)."""

    path: str
    name: str
    problem: str | None = None
    code: str = "E14"


_Ignore = tuple[str, "GitIgnoreSpec"]
"""A ``.gitignore`` file: its folder (absolute) and its patterns."""
_Exclusion = tuple[str, "GitIgnoreSpec"]
"""Exclusion patterns as applied in one walk: the folder they are matched from."""


def _ignore_file(folder: str, path: str) -> _Ignore | None:
    """The patterns of the ``.gitignore`` file *path*; lines that are not valid
    patterns are skipped, as git skips them."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    try:
        return folder, _compiled(lines)
    except (ValueError, re.error):
        valid = [line for line in lines if _pattern_problem(line) is None]
        return folder, _compiled(valid)


def _ignored(ignores: Sequence[_Ignore], absolute: str, is_dir: bool) -> bool:
    """Whether git would ignore *absolute*: the deepest ``.gitignore`` with a matching
    pattern decides, as in git."""
    for folder, spec in reversed(ignores):
        result = spec.check_file(_relative(absolute, folder, is_dir))
        if result.include is not None:
            return bool(result.include)
    return False


def _repository(folder: str) -> str | None:
    """The top of the git work tree holding *folder*, or None."""
    current = folder
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def unreadable_reason(path: str, exc: OSError) -> str:
    """Why *path* cannot be read, in words (for E14 and exit-2 messages)."""
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    if isinstance(exc, FileNotFoundError) and os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"a symbolic link to {printable(target)!r}, which does not exist"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if exc.strerror:
        return exc.strerror[:1].lower() + exc.strerror[1:]
    return str(exc)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _is_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_symlink()
    except OSError:
        return False


def read_in_folders(name: str) -> bool:
    """Whether a file named *name* (its last part) is read when a folder holding it
    is walked: a ``.pdn`` file, also compressed, or a zip archive, in any letter case.
    (The pre-commit hooks pick the same names; tests/test_cli_docs.py checks it.)"""
    lowered = name.lower()
    return lowered.endswith(PDN_ENDINGS) or is_zip_name(lowered)


@dataclass
class _Folder:
    """A folder waiting to be walked."""

    path: str
    absolute: str
    ignores: tuple[_Ignore, ...]
    ancestors: frozenset[tuple[int, int]]
    root: str
    """The real path of the folder named, which symbolic links may not leave."""


class Discovery:
    """Finds the files of one command; ``notes`` collects entries skipped with a note."""

    def __init__(self, options: WalkOptions | None = None) -> None:
        self.options = options or WalkOptions()
        self.notes: list[str] = []
        self._files: set[tuple[int, int]] = set()
        """The files found so far, by device and inode: a file reached again (named
        twice, or named and inside a folder named) is read once, where first found."""
        self._members: set[tuple[int, int, str]] = set()
        """The zip members found so far: their archive's device and inode, and name."""
        self._folders: set[tuple[int, int]] = set()

    def _first(self, info: os.stat_result) -> bool:
        """Whether the file *info* describes is found for the first time (and note it)."""
        ident = (info.st_dev, info.st_ino)
        if ident in self._files:
            return False
        self._files.add(ident)
        return True

    def _first_member(self, archive: str, member: str) -> bool:
        """Whether *member* of *archive* is found for the first time (and note it)."""
        try:
            info = os.stat(archive)
        except OSError:  # reading it will say why
            return True
        key = (info.st_dev, info.st_ino, member)
        if key in self._members:
            return False
        self._members.add(key)
        return True

    def files(self, paths: Iterable[str]) -> Iterator[Found]:
        """The files named by *paths*, in order (``-`` stands for standard input).

        A file (or zip member) reached more than once, by any route (named twice,
        named and inside a folder or archive named, through a link), is found once,
        at its first place in the order.

        Raises :class:`InputError` for a named path that does not exist or cannot be
        read: what is named must be there.
        """
        for raw in paths:
            if raw == "-":
                yield Found("-", "-")
                continue
            try:
                member = path_of_name(raw)
            except ArchiveError as exc:
                raise InputError(printable(str(exc))) from None
            if member != raw:  # archive.zip:inner.pdn, as reports name it
                through = split_member(member)
                problem = member_problem(*through) if through is not None else None
                if problem is not None:
                    raise InputError(f"{printable(raw)}: {problem}")
                if through is None or self._first_member(*through):
                    yield Found(member, printable(raw))
                continue
            try:
                info = os.stat(raw)
            except OSError as exc:
                through = split_member(raw)
                if through is not None and isinstance(exc, (NotADirectoryError, FileNotFoundError)):
                    # archive.zip/inner.pdn: a member named as a path through the archive
                    problem = member_problem(*through)
                    if problem is not None:
                        raise InputError(f"{printable(raw)}: {problem}") from None
                    if self._first_member(*through):
                        yield Found(raw, printable(member_name(*through)))
                    continue
                if isinstance(exc, FileNotFoundError) and not os.path.islink(raw):
                    raise InputError(f"{printable(raw)}: no such file or directory") from None
                raise InputError(f"{printable(raw)}: {unreadable_reason(raw, exc)}") from None
            if stat.S_ISDIR(info.st_mode):
                yield from self._walk(raw, info)
            elif stat.S_ISREG(info.st_mode):
                if not self._first(info):
                    continue
                if not os.access(raw, os.R_OK):
                    raise InputError(f"{printable(raw)}: permission denied")
                if is_zip_name(raw):
                    yield from self._archive(raw, named=True)
                else:
                    yield Found(raw, printable(raw))
            else:
                raise InputError(f"{printable(raw)}: not a regular file or directory")

    def _archive(self, path: str, named: bool) -> Iterator[Found]:
        """The members of the zip archive *path*; an archive found in a folder that
        cannot be read is reported (E14), as an archive over the member limit is
        (E11), and a member that is never opened (an unsafe name) too (E14)."""
        import zipfile  # imported by the archive reader, which only archives need

        try:
            members = zip_members(path, self.options.max_members)
        except TooManyMembers as exc:
            yield Found(path, printable(path), str(exc), "E11")
            return
        except (zipfile.BadZipFile, OSError) as exc:
            if named:
                raise InputError(f"{printable(path)}: not a readable zip archive ({exc})") from None
            yield Found(path, printable(path), f"not a readable zip archive ({exc})")
            return
        if named and not members:
            self.notes.append(f"{printable(path)}: holds no .pdn file")
        for member, reason in members:
            name = printable(member_name(path, member))
            if reason is None:
                if self._first_member(path, member):
                    yield Found(member_path(path, member), name)
            else:
                yield Found(name, name, f"a zip member that is never opened: {reason}")

    def _walk(self, root: str, info: os.stat_result) -> Iterator[Found]:
        absolute = os.path.abspath(root)
        exclude: list[_Exclusion] = []
        for patterns in self.options.exclude:
            base = patterns.base_for(absolute)
            # Patterns that exclude the named folder itself do not apply below it.
            if absolute == base or not patterns.spec.match_file(_relative(absolute, base, True)):
                exclude.append((base, patterns.spec))
        ignores: tuple[_Ignore, ...] = ()
        if self.options.respect_gitignore:
            ignores = self._ancestor_ignores(absolute)
        ident = (info.st_dev, info.st_ino)
        if ident in self._folders:
            return
        self._folders.add(ident)
        real = os.path.realpath(root)
        stack = [_Folder(root, absolute, ignores, frozenset({ident}), real)]
        while stack:
            folder = stack.pop()
            found, subfolders = self._list(folder, exclude)
            yield from found
            stack.extend(reversed(subfolders))

    def _ancestor_ignores(self, absolute: str) -> tuple[_Ignore, ...]:
        """The ``.gitignore`` files above *absolute*, up to the top of its repository,
        and ``.git/info/exclude``; none when a folder above is itself ignored."""
        top = _repository(absolute)
        if top is None or top == absolute:
            exclude = _ignore_file(absolute, os.path.join(absolute, ".git", "info", "exclude"))
            return (exclude,) if exclude is not None else ()
        out: list[_Ignore] = []
        exclude = _ignore_file(top, os.path.join(top, ".git", "info", "exclude"))
        if exclude is not None:
            out.append(exclude)
        folder = top
        rest = os.path.relpath(absolute, top).split(os.sep)
        for part in rest:
            ignore = _ignore_file(folder, os.path.join(folder, ".gitignore"))
            if ignore is not None:
                out.append(ignore)
            folder = os.path.join(folder, part)
            if _ignored(out, folder, True):
                return ()  # the named folder is ignored: read it anyway
        return tuple(out)

    def _skipped(
        self,
        absolute: str,
        is_dir: bool,
        exclude: list[_Exclusion],
        ignores: Sequence[_Ignore],
    ) -> bool:
        if any(spec.match_file(_relative(absolute, base, is_dir)) for base, spec in exclude):
            return True
        return bool(ignores) and _ignored(ignores, absolute, is_dir)

    def _list(
        self, folder: _Folder, exclude: list[_Exclusion]
    ) -> tuple[list[Found], list[_Folder]]:
        """The files of *folder* to read and its subfolders to walk, in name order."""
        try:
            with os.scandir(folder.path) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as exc:
            problem = f"the folder cannot be read: {unreadable_reason(folder.path, exc)}"
            return [Found(folder.path, printable(folder.path), problem)], []
        ignores = folder.ignores
        if self.options.respect_gitignore and any(e.name == ".gitignore" for e in entries):
            own = _ignore_file(folder.absolute, os.path.join(folder.absolute, ".gitignore"))
            if own is not None:
                ignores = (*ignores, own)
        files: list[Found] = []
        subfolders: list[_Folder] = []
        for entry in entries:
            path = entry.name if folder.path == os.curdir else os.path.join(folder.path, entry.name)
            absolute = os.path.join(folder.absolute, entry.name)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if not is_dir and not read_in_folders(entry.name):
                continue
            if self._skipped(absolute, is_dir, exclude, ignores):
                continue
            if not self.options.follow_links and _is_link(entry):
                outside = self.link_outside(path, folder.root)
                if outside is not None:
                    files.append(outside)
                    continue
            if is_dir:
                sub = self._subfolder(path, absolute, ignores, folder.ancestors, files, folder.root)
                if sub is not None:
                    subfolders.append(sub)
            else:
                files.extend(self._file(entry, path))
        return files, subfolders

    def _subfolder(
        self,
        path: str,
        absolute: str,
        ignores: tuple[_Ignore, ...],
        ancestors: frozenset[tuple[int, int]],
        problems: list[Found],
        root: str,
    ) -> _Folder | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        ident = (info.st_dev, info.st_ino)
        if ident in ancestors:
            problems.append(
                Found(
                    path,
                    printable(path),
                    "a symbolic link loop (it leads back to a folder above it)",
                )
            )
            return None
        if ident in self._folders or os.path.exists(os.path.join(path, "pyvenv.cfg")):
            return None  # walked already, or a virtual environment
        self._folders.add(ident)
        return _Folder(path, absolute, ignores, ancestors | {ident}, root)

    @staticmethod
    def link_outside(path: str, root: str) -> Found | None:
        """The W39 entry of *path* when it leads out of the folder whose real path is
        *root* through a symbolic link, else None.  The message quotes the link as
        written, never where it leads on this machine."""
        if _within(os.path.realpath(path), root):
            return None
        try:
            written = f"a symbolic link to {printable(os.readlink(path))!r}"
        except OSError:
            written = "reached through a symbolic link"
        return Found(
            path,
            printable(path),
            f"{written}, which leads out of the folder read; not followed "
            "(--follow-links reads it)",
            "W39",
        )

    def _file(self, entry: os.DirEntry[str], path: str) -> list[Found]:
        try:
            info = entry.stat()
        except OSError as exc:
            return [Found(path, printable(path), unreadable_reason(path, exc))]
        if not stat.S_ISREG(info.st_mode):
            self.notes.append(f"{printable(path)}: skipped, {_kind(info.st_mode)}")
            return []
        if not self._first(info):
            return []
        if not os.access(path, os.R_OK):
            return [Found(path, printable(path), "permission denied")]
        if is_zip_name(entry.name):
            return list(self._archive(path, named=False))
        return [Found(path, printable(path))]
