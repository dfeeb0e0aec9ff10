"""Options shared by several commands, defined once, and the settings they make.

Each decorator adds a group of options.  :func:`configured` (put right above the
command's function) reads the configuration file (:mod:`pdn_tools.cli.config`), lets
it fill every option the command line left at its default, and hands the command one
:class:`Common` object in place of the shared options.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem

from pdn_tools.cli.config import LIMITS, SETTINGS, Config, ConfigError, load
from pdn_tools.cli.terminal import COLOR_CHOICES
from pdn_tools.collection.events.rules import (
    EVENT_RULES,
    EventRuleError,
    EventRules,
    event_rules,
    is_event_rule,
)
from pdn_tools.diagnostics import STATUS_WORDS
from pdn_tools.pdn.archives import MAX_EXPANSION, MAX_MEMBERS
from pdn_tools.pdn.dialects import DIALECTS
from pdn_tools.pdn.model import ReadOptions
from pdn_tools.pdn.results import OUTCOMES
from pdn_tools.pdn.source import EncodingError, check_encoding
from pdn_tools.replay.rule_options import (
    RULE_OPTIONS,
    RuleOptionError,
    parse_assignment,
    rule_values,
)
from pdn_tools.report.selection import Selection, SelectionError, parse_prefixes
from pdn_tools.rules import Variant, variant_by_name, variant_names, variants
from pdn_tools.run.check import CheckOptions
from pdn_tools.run.discover import DEFAULT_EXCLUDE, PatternError, Patterns, WalkOptions
from pdn_tools.run.parallel import default_jobs
from pdn_tools.run.storage import DATA_SCHEMES

F = TypeVar("F", bound=Callable[..., Any])


def _apply(func: F, options: list[Callable[[F], F]]) -> F:
    for option in reversed(options):
        func = option(func)
    return func


def variant_list() -> str:
    """Every variant and profile by name, with its GameType number: the list the help
    of ``--variant`` shows."""
    return variant_names()


if TYPE_CHECKING:
    from pdn_tools.collection.duplicates import Comparison
    from pdn_tools.collection.filters import GameFilter

if TYPE_CHECKING:  # click 8.5 types its parameter types by value and input
    _ParamType = click.ParamType[str, Any]
else:
    _ParamType = click.ParamType


class VariantType(_ParamType):
    """A variant by name, alias or GameType number, in any letter case; the value is
    the variant's name (``English`` → ``english``, ``21`` → ``english``)."""

    name = "variant"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "NAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if isinstance(value, Variant):
            return value.name
        try:
            return variant_by_name(str(value)).name
        except KeyError:
            self.fail(f"unknown variant {value!r}; known: {variant_list()}", param, ctx)

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        names = [v.name for v in variants()] + [a for v in variants() for a in v.aliases]
        return [CompletionItem(n) for n in names if n.startswith(incomplete.lower())]


VARIANT = VariantType()


def variant_option(default: str | None, help_text: str) -> Callable[[F], F]:
    """``--variant NAME``: the one variant option of every command."""
    return click.option(
        "--variant",
        type=VARIANT,
        default=default,
        help=help_text.format(variants=variant_list()),
    )


def _encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        check_encoding(value)
    except EncodingError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return value


def split_rules(
    pairs: Iterable[tuple[str, object]],
) -> tuple[dict[str, Any], list[tuple[str, object]]]:
    """``--rule`` pairs (or the ``rules`` table) read: the replay's
    :class:`~pdn_tools.replay.ReplayOptions` fields, and the pairs of the event rules
    (:mod:`pdn_tools.collection.events.rules`), checked.  An unknown name raises
    :class:`RuleOptionError` naming the rules of both tables."""
    replay: list[tuple[str, object]] = []
    events: list[tuple[str, object]] = []
    for name, value in pairs:
        key = name.strip().lower().replace("_", "-")
        if is_event_rule(key):
            events.append((name, value))
        elif key in RULE_OPTIONS:
            replay.append((name, value))
        else:
            known = ", ".join([*RULE_OPTIONS, *EVENT_RULES])
            raise RuleOptionError(f"unknown rule {name!r} (known: {known})")
    try:
        event_rules(events)
    except EventRuleError as exc:
        raise RuleOptionError(str(exc)) from None
    return rule_values(replay), events


def _rules(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[tuple[str, str], ...]:
    try:
        pairs = tuple(parse_assignment(text) for text in value)
        split_rules(pairs)
    except RuleOptionError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return pairs


def reading_options(func: F) -> F:
    """How PDN is read and replayed, and where the settings come from."""
    return _apply(
        func,
        [
            click.option(
                "--strict", is_flag=True, help="Report every deviation from PDN 3.0 as an error."
            ),
            click.option(
                "--encoding",
                metavar="NAME",
                default=None,
                callback=_encoding,
                help="Decode input with this encoding instead of detecting it (e.g. cp1251, "
                "cp866, utf-16).",
            ),
            variant_option(
                None,
                "Variant of games without a GameType tag: {variants}.  Aliases and "
                "GameType numbers work too, in any letter case; a site profile also "
                "replaces GameType 20.",
            ),
            click.option(
                "--dialect",
                type=click.Choice(DIALECTS, case_sensitive=False),
                default=None,
                help="Read every game in this producer's dialect instead of recognising "
                "the producer per game; none: read by PDN 3.0 alone.",
            ),
            click.option(
                "--max-game-size",
                type=click.IntRange(min=1000),
                default=2_000_000,
                show_default=True,
                metavar="CHARS",
                help="Largest game read, in characters; larger games are reported (E11).",
            ),
            click.option(
                "--max-depth",
                type=click.IntRange(min=1, max=200),
                default=100,
                show_default=True,
                metavar="N",
                help="Deepest variation nesting read; deeper games are reported (E11).",
            ),
            click.option(
                "--max-expansion",
                type=click.IntRange(min=1),
                default=MAX_EXPANSION,
                show_default=True,
                metavar="RATIO",
                help="Most bytes compressed input may expand to per compressed byte (past "
                "the first 16 MiB); the rest of such a file is reported (E11).",
            ),
            click.option(
                "--rule",
                multiple=True,
                metavar="NAME=VALUE",
                callback=_rules,
                help="Set how a rule is interpreted, e.g. repetition-side-to-move=no; "
                f"repeat for several.  Names: {', '.join([*RULE_OPTIONS, *EVENT_RULES])}.",
            ),
            click.option(
                "--stdin-filename",
                metavar="NAME",
                default=None,
                help="Name standard input ('-') by this name in reports.",
            ),
            click.option(
                "--config",
                multiple=True,
                metavar="PATH | 'KEY = VALUE'",
                help="Read settings from this file instead of the nearest pyproject.toml "
                "or pdn.toml, or override one setting (TOML).",
            ),
            click.option(
                "--isolated",
                is_flag=True,
                help="Read no configuration file.",
            ),
        ],
    )


def discovery_options(func: F) -> F:
    """Which files below the folders given are read."""
    return _apply(
        func,
        [
            click.option(
                "--exclude",
                multiple=True,
                metavar="PATTERN",
                help="Skip files and folders matching this .gitignore-style pattern, "
                "instead of the default (hidden and tool folders); repeat for several.",
            ),
            click.option(
                "--extend-exclude",
                multiple=True,
                metavar="PATTERN",
                help="Skip files and folders matching this pattern as well.",
            ),
            click.option(
                "--respect-gitignore/--no-respect-gitignore",
                default=True,
                show_default=True,
                help="Skip the files that .gitignore files ignore.",
            ),
            click.option(
                "--follow-links",
                is_flag=True,
                help="Read files that symbolic links inside a folder lead to outside it "
                "(by default they are reported, W39, and not read).",
            ),
            click.option(
                "--max-members",
                type=click.IntRange(min=1),
                default=MAX_MEMBERS,
                show_default=True,
                metavar="N",
                help="Most members a zip archive may have; a larger one is reported (E11).",
            ),
            click.option(
                "--allow-scheme",
                "allow_schemes",
                multiple=True,
                metavar="SCHEME",
                help="Also read URLs of this scheme (e.g. ftp, hdfs); by default only "
                f"{', '.join(DATA_SCHEMES)} URLs are read.  Repeat for several.",
            ),
        ],
    )


def plausibility_threshold_option(func: F) -> F:
    """``--plausibility-threshold CENTIMEN``: W70's threshold (``validate`` and
    ``analyse``; None: the board's default)."""
    return click.option(
        "--plausibility-threshold",
        type=click.IntRange(min=1),
        default=None,
        metavar="CENTIMEN",
        help="How much more the recorded moves of a window must lose as written than with "
        "a slip undone for a move to be doubted (a man is 100; default 200 on 8x8 boards, "
        "350 on larger ones).",
    )(func)


def jobs_option(func: F) -> F:
    """``-j``/``--jobs N``: worker processes (:attr:`Common.jobs`)."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Worker processes (default: all cores); the output does not depend on it.",
    )(func)


def quiet_option(
    func: F, help: str = "No summary, notes or progress bar on stderr; only the report."
) -> F:
    """``-q``/``--quiet``: no chatter on stderr (:attr:`Common.quiet`)."""
    return click.option("-q", "--quiet", is_flag=True, help=help)(func)


def writer_quiet_option(func: F) -> F:
    """``-q``/``--quiet`` of the commands that write games (``convert``, ``analyse``),
    whose stderr carries no report: the errors about inputs stay."""
    return quiet_option(
        func,
        "No summary or notes on stderr; only the errors about inputs (a file that cannot "
        "be read, or holds no PDN).",
    )


def run_options(func: F) -> F:
    """Parallelism, chatter and colour: what a run over many files needs."""
    return _apply(
        func,
        [
            jobs_option,
            quiet_option,
            click.option(
                "--color",
                type=click.Choice(COLOR_CHOICES),
                default="auto",
                show_default=True,
                help="Colour the output: auto follows NO_COLOR, FORCE_COLOR, TERM and "
                "whether it goes to a terminal.",
            ),
        ],
    )


def checking_options(func: F) -> F:
    """Replay on/off, parallelism, chatter and colour: what a checking run needs."""
    return click.option(
        "--syntax-only",
        is_flag=True,
        help="Only read the records; do not replay the moves.",
    )(run_options(func))


def _prefixes(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    try:
        return parse_prefixes(value)
    except SelectionError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None


def selection_options(func: F) -> F:
    """``--select`` and ``--ignore``: which diagnostic codes are reported."""
    return _apply(
        func,
        [
            click.option(
                "--select",
                multiple=True,
                metavar="CODE",
                callback=_prefixes,
                help="Report only these codes or prefixes (W, E0, W12); repeat or separate "
                "with commas.",
            ),
            click.option(
                "--ignore",
                multiple=True,
                metavar="CODE",
                callback=_prefixes,
                help="Do not report these codes or prefixes; they count for nothing.",
            ),
        ],
    )


def _values(value: tuple[str, ...]) -> list[str]:
    """Repeated and comma-separated option values, stripped, empty ones dropped."""
    return [part.strip() for text in value for part in text.split(",") if part.strip()]


def _checked(
    parser: Callable[[], Callable[[str], Any]],
) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback reading each value of a repeated option with the function *parser*
    returns; a :class:`~pdn_tools.collection.filters.FilterError` is a usage error
    naming the option.  The filters are imported only when such an option is given,
    so that a command run without one does not load them."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is None or value == ():
            return value
        from pdn_tools.collection.filters import FilterError

        parse = parser()
        try:
            if isinstance(value, tuple):
                return tuple(parse(v) for v in value)
            return None if value is None else parse(value)
        except FilterError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None

    return callback


def _results(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    values = _values(value)
    if not values:
        return ()
    from pdn_tools.collection.filters import normalise_result

    return tuple(normalise_result(v) for v in values)


def _tag_test() -> Callable[[str], Any]:
    from pdn_tools.collection.filters import parse_tag_test

    return parse_tag_test


def _glob() -> Callable[[str], Any]:
    from pdn_tools.collection.filters import glob_pattern

    return glob_pattern


def _date_bound(end: bool) -> Callable[[], Callable[[str], Any]]:
    def parser() -> Callable[[str], Any]:
        from pdn_tools.collection.filters import parse_date_bound

        return functools.partial(parse_date_bound, end=end)

    return parser


def _reach() -> Callable[[str], Any]:
    from pdn_tools.collection.filters import parse_reach

    return parse_reach


def _statuses(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    out: list[str] = []
    for text in _values(value):
        word = STATUS_WORDS.get(text.lower())
        if word is not None:
            out.append(word)
            continue
        try:
            out.extend(parse_prefixes([text]))
        except SelectionError:
            raise click.BadParameter(
                f"{text!r} is no status (clean, warnings, errors) nor a diagnostic code "
                "or code prefix",
                ctx,
                param,
            ) from None
    return tuple(out)


def _variants(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    return tuple(VARIANT.convert(v, param, ctx) for v in _values(value))


def filter_options(func: F) -> F:
    """Which games a run keeps (:class:`~pdn_tools.collection.filters.GameFilter`):
    every test given must hold; ``--invert`` keeps the games that fail one."""
    return _apply(
        func,
        [
            click.option(
                "--tag",
                "tag_tests",
                multiple=True,
                metavar="NAME=GLOB | NAME~REGEX",
                callback=_checked(_tag_test),
                help="Keep games whose tag NAME matches the glob (whole value, any case) "
                "or contains a match of the regular expression; repeat for several.",
            ),
            click.option(
                "--player",
                "players",
                multiple=True,
                metavar="GLOB",
                callback=_checked(_glob),
                help="Keep games in which White or Black matches the glob (any case); "
                "repeat for games between two players.",
            ),
            click.option(
                "--date-from",
                metavar="DATE",
                callback=_checked(_date_bound(end=False)),
                help="Keep games dated on or after DATE (YYYY, YYYY.MM or YYYY.MM.DD).",
            ),
            click.option(
                "--date-to",
                metavar="DATE",
                callback=_checked(_date_bound(end=True)),
                help="Keep games dated on or before DATE (YYYY, YYYY.MM or YYYY.MM.DD).",
            ),
            click.option(
                "--result",
                "results",
                multiple=True,
                metavar="RESULT",
                callback=_results,
                help=f"Keep games with this result as written (2-0, 1-0, *) or outcome "
                f"({', '.join(OUTCOMES)}); repeat or separate with commas for any of several.",
            ),
            click.option(
                "--only-variant",
                "only_variants",
                multiple=True,
                metavar="NAME",
                callback=_variants,
                help="Keep games of this variant (names as for --variant); repeat or "
                "separate with commas for any of several.",
            ),
            click.option(
                "--min-plies",
                type=click.IntRange(min=0),
                default=None,
                metavar="N",
                help="Keep games of at least N main-line plies.",
            ),
            click.option(
                "--max-plies",
                type=click.IntRange(min=0),
                default=None,
                metavar="N",
                help="Keep games of at most N main-line plies.",
            ),
            click.option(
                "--status",
                "statuses",
                multiple=True,
                metavar="STATUS",
                callback=_statuses,
                help="Keep games that are clean, have warnings or errors, or have a "
                "finding of a code or prefix (E05, W1); repeat or separate with commas "
                "for any of several.",
            ),
            click.option(
                "--reaches",
                "reaches",
                multiple=True,
                metavar="FEN",
                callback=_checked(_reach),
                help="Keep games whose main line reaches this position (the side to move "
                "counts when the FEN gives it: W:W31,32:B1,2; or not: W31,32:B1,2).",
            ),
            click.option(
                "--invert",
                is_flag=True,
                help="Keep the games the filter options leave out instead.",
            ),
        ],
    )


def comparison_options(func: F) -> F:
    """How copies of a game are told (:class:`~pdn_tools.collection.duplicates.Comparison`)."""
    return _apply(
        func,
        [
            click.option(
                "--moves-only",
                is_flag=True,
                help="Copies are games with the same variant, start position and moves, "
                "whatever their result, players and other tags.",
            ),
            click.option(
                "--prefix",
                type=click.IntRange(min=1),
                default=None,
                metavar="N",
                help="Copies are games that agree on their first N plies (and variant and "
                "start position).",
            ),
        ],
    )


def comparison(moves_only: bool, prefix: int | None) -> Comparison:
    """The :class:`Comparison` of ``--moves-only`` and ``--prefix`` (imported here: the
    commands that tell no copies never load the module)."""
    from pdn_tools.collection.duplicates import Comparison

    return Comparison(moves_only=moves_only or prefix is not None, prefix=prefix)


_FILTER_KEYS = (
    "tag_tests",
    "players",
    "date_from",
    "date_to",
    "results",
    "only_variants",
    "min_plies",
    "max_plies",
    "statuses",
    "reaches",
    "invert",
)


def _game_filter(kwargs: dict[str, Any], syntax_only: bool) -> GameFilter | None:
    """The filter the filter options make (None: no filter option given)."""
    if "invert" not in kwargs:
        return None
    given = {key: kwargs.pop(key) for key in _FILTER_KEYS}
    if all(given[key] in ((), None) for key in _FILTER_KEYS if key != "invert"):
        if given["invert"]:
            raise click.UsageError("--invert needs a filter option to invert")
        return None  # the filters are not even imported
    from pdn_tools.collection.filters import GameFilter

    keep = GameFilter(
        tags=given["tag_tests"],
        players=given["players"],
        date_from=given["date_from"],
        date_to=given["date_to"],
        results=given["results"],
        variants=given["only_variants"],
        min_plies=given["min_plies"],
        max_plies=given["max_plies"],
        statuses=given["statuses"],
        reaches=given["reaches"],
        invert=given["invert"],
    )
    if keep.reaches and syntax_only:
        raise click.UsageError("--reaches needs the replay; it cannot go with --syntax-only")
    return keep


@dataclass
class Common:
    """The shared options of a command after the configuration file had its say."""

    read: ReadOptions
    rules: dict[str, Any] = field(default_factory=dict)
    """ReplayOptions fields set by ``--rule`` and the ``rules`` table."""
    events: EventRules = field(default_factory=EventRules)
    """The event rules set by ``--rule`` and the ``rules`` table."""
    walk: WalkOptions = field(default_factory=WalkOptions)
    syntax_only: bool = False
    jobs: int | None = None
    quiet: bool = False
    color: str = "auto"
    stdin_filename: str | None = None
    dask: str | None = None
    """``--dask ADDRESS``: the Dask cluster to run on instead of local workers."""
    filter: GameFilter | None = None
    """Which games are kept (the filter options; None: every game)."""

    @property
    def check(self) -> CheckOptions:
        """How games are read, replayed and kept."""
        return CheckOptions(
            read=self.read, syntax_only=self.syntax_only, rules=self.rules, keep=self.filter
        )

    @property
    def workers(self) -> int:
        """``--jobs``, or every core this process may use."""
        return self.jobs if self.jobs is not None else default_jobs()


def _is_default(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is None or source in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def _patterns(value: Any, where: str) -> tuple[str, ...]:
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ConfigError(f"{where}: exclusion patterns must be a list of strings")
    return tuple(values)


def _not_raised(config: Config, key: str, value: object, default: object) -> None:
    """Refuse a limit a configuration file raises above its *default*: checked on the
    value as TOML gave it (so that the message says why, not the option's range) and
    again as the option converted it (whatever TOML made of it).  A ``--config KEY =
    VALUE`` override is typed on the command line, which may raise limits."""
    if key not in LIMITS or config.where(key) == "--config":
        return
    if isinstance(value, int) and isinstance(default, int) and value > default:
        raise ConfigError(
            f"{config.where(key)}: {key}: {value} is above the default ({default}); a "
            f"configuration file may lower a limit, not raise it (give --{key} on the "
            "command line)"
        )


def _from_config(ctx: click.Context, config: Config, kwargs: dict[str, Any]) -> None:
    """Let *config* fill every option of the command the command line did not give."""
    params = {p.name: p for p in ctx.command.params if p.name}
    for key, value in config.values.items():
        name = SETTINGS[key]
        if key in ("rules", "exclude", "extend-exclude") or name not in params:
            continue
        if not _is_default(ctx, name):
            continue
        param = params[name]
        if param.multiple and isinstance(value, str):
            value = [value]
        _not_raised(config, key, value, param.default)  # before the option's own range
        try:
            converted = param.process_value(ctx, value)
        except click.BadParameter as exc:
            raise ConfigError(f"{config.where(key)}: {key}: {exc.message}") from None
        except (TypeError, ValueError, OverflowError):  # a TOML value of the wrong kind
            raise ConfigError(
                f"{config.where(key)}: {key}: {value!r} is not a valid value"
            ) from None
        _not_raised(config, key, converted, param.default)  # as the command will use it
        kwargs[name] = converted


def _walk(config: Config, kwargs: dict[str, Any]) -> WalkOptions:
    """The exclusions: ``--exclude`` (or the file's ``exclude``, or the default) and
    every ``extend-exclude`` of the file and the command line.  A pattern that is not
    ``.gitignore`` syntax is a usage error naming it and where it was given."""
    cwd = os.getcwd()
    cli_exclude: tuple[str, ...] = kwargs.pop("exclude", ())
    cli_extend: tuple[str, ...] = kwargs.pop("extend_exclude", ())
    if cli_exclude:
        exclude = [_option_patterns(cli_exclude, cwd, "--exclude")]
    elif "exclude" in config.values:
        exclude = [_config_patterns(config, "exclude")]
    else:
        exclude = [Patterns(DEFAULT_EXCLUDE, cwd)]
    if "extend-exclude" in config.values:
        exclude.append(_config_patterns(config, "extend-exclude"))
    if cli_extend:
        exclude.append(_option_patterns(cli_extend, cwd, "--extend-exclude"))
    return WalkOptions(
        exclude=exclude,
        respect_gitignore=kwargs.pop("respect_gitignore", True),
        follow_links=kwargs.pop("follow_links", False),
        max_members=kwargs.pop("max_members", MAX_MEMBERS),
        schemes=allowed_schemes(kwargs.pop("allow_schemes", ())),
    )


def allowed_schemes(values: Iterable[str]) -> tuple[str, ...]:
    """The schemes of ``--allow-scheme``, in lower case (``ftp``, ``FTP://`` alike);
    a value that is not a scheme name is a usage error."""
    out = []
    for value in values:
        name = value.strip().lower().removesuffix("://")
        if not name or not name[0].isalpha() or not all(c.isalnum() or c in "+.-" for c in name):
            raise click.BadParameter(
                f"{value!r} is not a URL scheme", param_hint="'--allow-scheme'"
            )
        out.append(name)
    return tuple(out)


def _option_patterns(patterns: tuple[str, ...], cwd: str, option: str) -> Patterns:
    """The patterns of a command-line *option*; an invalid one is a usage error."""
    try:
        return Patterns(patterns, cwd)
    except PatternError as exc:
        raise click.BadParameter(str(exc), param_hint=f"'{option}'") from None


def _config_patterns(config: Config, key: str) -> Patterns:
    """The patterns of the configuration's *key*; an invalid one is an error naming
    the file."""
    where = config.where(key)
    try:
        return Patterns(_patterns(config.values[key], where), config.base)
    except PatternError as exc:
        raise ConfigError(f"{where}: {key}: {exc}") from None


def _rule_values(
    config: Config, cli: Iterable[tuple[str, str]]
) -> tuple[dict[str, Any], EventRules]:
    """The replay's fields and the event rules of the ``rules`` table and ``--rule``
    (the command line wins)."""
    table = config.values.get("rules", {})
    try:
        from_file, file_events = split_rules(table.items())
    except RuleOptionError as exc:
        raise ConfigError(f"{config.where('rules')}: rules: {exc}") from None
    from_cli, cli_events = split_rules(cli)
    return {**from_file, **from_cli}, event_rules([*file_events, *cli_events])


def configured(func: F) -> F:
    """Run the command with its options completed by the configuration file; the
    shared options reach it as one ``common`` argument (see :class:`Common`)."""

    @functools.wraps(func)
    def command(**kwargs: Any) -> Any:
        ctx = click.get_current_context()
        try:
            return _configured(ctx, func, kwargs)
        except ConfigError as exc:
            exc.command = ctx.command_path
            raise

    return command  # type: ignore[return-value]


def _configured(ctx: click.Context, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
    """Read the configuration, complete the options, run *func* with them."""
    paths = kwargs.get("paths") or ((kwargs["path"],) if "path" in kwargs else ())
    config = load(paths, kwargs.pop("config", ()), kwargs.pop("isolated", False))
    _from_config(ctx, config, kwargs)
    walk = _walk(config, kwargs)
    read = ReadOptions(
        strict=kwargs.pop("strict"),
        encoding=kwargs.pop("encoding"),
        variant=kwargs.pop("variant"),
        dialect=_lower(kwargs.pop("dialect", None)),
        max_game_chars=kwargs.pop("max_game_size"),
        max_depth=kwargs.pop("max_depth"),
        max_expansion=kwargs.pop("max_expansion"),
    )
    syntax_only = kwargs.pop("syntax_only", False)
    rules, events = _rule_values(config, kwargs.pop("rule", ()))
    common = Common(
        read=read,
        rules=rules,
        events=events,
        walk=walk,
        syntax_only=syntax_only,
        jobs=kwargs.pop("jobs", None),
        quiet=kwargs.pop("quiet", False),
        color=kwargs.pop("color", "auto"),
        stdin_filename=kwargs.pop("stdin_filename", None),
        dask=kwargs.pop("dask", None),
        filter=_game_filter(kwargs, syntax_only),
    )
    if common.dask is not None and common.jobs is not None:
        raise click.UsageError(
            "--jobs and --dask exclude each other (--dask local:N runs N workers)", ctx
        )
    return func(common=common, **kwargs)


def _lower(value: str | None) -> str | None:
    """A choice given in any letter case, as its name (``--dialect PY-DRAUGHTS``)."""
    return value.lower() if value is not None else None


def selection(select: tuple[str, ...], ignore: tuple[str, ...]) -> Selection:
    """The :class:`Selection` of ``--select`` and ``--ignore``."""
    return Selection(select, ignore)


def _verdict_options(page: bool) -> Callable[[F], F]:
    """``--info``, ``--fail-on``, ``--exit-zero`` and ``--no-group``: what a report
    lists and when the run fails, with help that speaks of the formats of ``validate``
    or of ``report``'s page (*page*)."""
    where = "on the page" if page else "in text, github and html"
    grouped = "on the page" if page else "text, github, html; json's habits list"

    def apply(func: F) -> F:
        return _apply(
            func,
            [
                click.option(
                    "--info",
                    "show_info",
                    is_flag=True,
                    help=f"Also list info-level findings {where}.",
                ),
                click.option(
                    "--fail-on",
                    type=click.Choice(["error", "warning"]),
                    default="error",
                    show_default=True,
                    help="Least severity of a finding that makes the exit status 1.",
                ),
                click.option(
                    "--exit-zero",
                    is_flag=True,
                    help="Exit 0 even when games fail (by --fail-on); 2 still means 2.",
                ),
                click.option(
                    "--no-group",
                    "no_group",
                    is_flag=True,
                    help="List every occurrence of a file's habits (a warning in most of "
                    f"its games) instead of one finding per habit ({grouped}).",
                ),
            ],
        )

    return apply


verdict_options = _verdict_options(page=False)
"""The verdict options of ``validate``."""
page_verdict_options = _verdict_options(page=True)
"""The verdict options of ``report``, whose one format is its HTML page."""


def dask_option(func: F) -> F:
    """``--dask ADDRESS``: run on a Dask cluster instead of local worker processes
    (:attr:`Common.dask`; excludes ``--jobs``)."""
    return click.option(
        "--dask",
        "dask",
        metavar="ADDRESS",
        default=None,
        help="Run on a Dask cluster: 'local' (local:N for N workers) or a scheduler "
        "address (tcp://host:8786); the output does not depend on it. Needs "
        "pip install 'pdn-tools[dask]'.",
    )(func)
