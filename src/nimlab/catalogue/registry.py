"""The catalogue registry: game names and aliases, options, and canonical spec strings.

>>> from nimlab.catalogue import find_game, make_game, load_game
>>> find_game("silver-dollar").name
'silver-dollar'
>>> make_game("subtraction", GameOptions(subtraction_set=(4, 1, 3))).spec
'subtraction(S=1,3,4)'
>>> load_game("subtraction(S=1,3,4)").spec, load_game("nim(misere)").spec
('subtraction(S=1,3,4)', 'nim(misere)')
>>> find_game("chess")
Traceback (most recent call last):
  ...
nimlab.errors.UnknownGameError: unknown game 'chess'; known games: ...
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nimlab.catalogue.base import CatalogueGame, GameOptions
from nimlab.errors import InvalidPositionError, UnknownGameError
from nimlab.exact import NumberTooLongError, parse_natural

__all__ = [
    "find_game",
    "game_names",
    "load_game",
    "make_game",
    "options_from_mapping",
    "parse_int_list",
    "parse_skips",
    "register",
    "registered_games",
]

_GAMES: dict[str, type[CatalogueGame[Any]]] = {}
_ALIASES: dict[str, str] = {}


def register(cls: type[CatalogueGame[Any]]) -> type[CatalogueGame[Any]]:
    """Class decorator: add a game to the catalogue under its name and aliases."""
    for key in (cls.name, *cls.aliases):
        if key in _GAMES or key in _ALIASES:
            raise ValueError(f"game name {key!r} registered twice")
    _GAMES[cls.name] = cls
    for alias in cls.aliases:
        _ALIASES[alias] = cls.name
    return cls


def game_names() -> list[str]:
    """The registered names, in registration order."""
    return list(_GAMES)


def registered_games() -> list[type[CatalogueGame[Any]]]:
    """Every registered game class, in registration order."""
    return list(_GAMES.values())


def find_game(name: str) -> type[CatalogueGame[Any]]:
    """The game class registered under ``name`` (or an alias); UnknownGameError lists them all."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _GAMES:
        raise UnknownGameError.among("game", name, [*_GAMES])
    return _GAMES[key]


def make_game(name: str, options: GameOptions | None = None) -> CatalogueGame[Any]:
    """The configured game; options that do not apply to it are an error."""
    cls = find_game(name)
    options = options or GameOptions()
    if options.misere and "--misere" not in cls.option_flags and cls.impartial:
        # misère play of any impartial game: its quotient or a search (nimlab.quotients)
        from dataclasses import replace

        from nimlab.catalogue.misere_play import MisereEntry

        return MisereEntry(make_game(name, replace(options, misere=False)))
    extra = [flag for flag in options.given() if flag not in cls.option_flags]
    if extra:
        takes = ", ".join(sorted(cls.option_flags)) or "no options"
        raise InvalidPositionError(
            f"option {', '.join(extra)} does not apply to {cls.name} (it takes: {takes})"
        )
    return cls.configure(options)


def parse_int_list(text: str, what: str, *, minimum: int = 0) -> tuple[int, ...]:
    """Parse ``"1,3,4"`` strictly into integers >= ``minimum``.

    >>> parse_int_list("1, 3,4", "--set", minimum=1)
    (1, 3, 4)
    >>> parse_int_list("1,x", "--set")
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: invalid --set entry 'x': expected an integer >= 0
    """
    result = []
    for token in text.split(","):
        try:
            result.append(parse_natural(token, what=f"{what} entry", minimum=minimum))
        except NumberTooLongError:  # the parser's message says how long
            raise
        except InvalidPositionError:
            raise InvalidPositionError(
                f"invalid {what} entry {token!r}: expected an integer >= {minimum}"
            ) from None
    return tuple(result)


def parse_skips(text: str) -> tuple[int, int]:
    """Parse the skip allowances ``"A,B"`` of skip-nim.

    >>> parse_skips("2,1")
    (2, 1)
    """
    pair = parse_int_list(text, "--skips")
    if len(pair) != 2:
        raise InvalidPositionError(f"invalid skips {text!r}: expected two integers A,B")
    return pair[0], pair[1]


def _parse_int(text: str, what: str) -> int:
    return parse_int_list(text, what)[0]


def _int_option(value: object, flag: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise InvalidPositionError(f"invalid {flag} {value!r}: expected an integer")
    return _parse_int(str(value), flag) if isinstance(value, str) else _nonnegative(value, flag)


def _nonnegative(value: int, flag: str) -> int:
    if value < 0:
        raise InvalidPositionError(f"invalid {flag} {value}: it must be non-negative")
    return value


def _int_list(value: object, flag: str, minimum: int) -> tuple[int, ...]:
    if isinstance(value, str):
        return parse_int_list(value, flag, minimum=minimum)
    if isinstance(value, list | tuple):
        return parse_int_list(",".join(map(str, value)), flag, minimum=minimum)
    raise InvalidPositionError(f"invalid {flag} {value!r}: expected a list of integers")


def options_from_mapping(mapping: Mapping[str, object]) -> GameOptions:
    """Game options from a JSON-like mapping (the web API's ``options``), keyed like the flags.

    >>> options_from_mapping({"set": "1,3,4"}).subtraction_set
    (1, 3, 4)
    >>> options_from_mapping({"skips": [2, 1], "misere": False}).skips
    (2, 1)
    >>> options_from_mapping({"colour": 1})
    Traceback (most recent call last):
      ...
    nimlab.errors.InvalidPositionError: unknown option 'colour'; known: misere, set, max, ...
    """
    known = ("misere", "set", "max", "additions", "cap", "skips", "code", "row", "limit")
    values: dict[str, Any] = {}
    for key, value in mapping.items():
        if value is None:
            continue
        if key == "misere":
            if not isinstance(value, bool):
                raise InvalidPositionError(f"invalid misere {value!r}: expected true or false")
            values["misere"] = value
        elif key == "set":
            values["subtraction_set"] = _int_list(value, "--set", 1)
        elif key == "skips":
            pair = _int_list(value, "--skips", 0)
            values["skips"] = parse_skips(",".join(map(str, pair)))
        elif key == "code":
            values["code"] = str(value)
        elif key in ("max", "additions", "cap", "row", "limit"):
            values[{"max": "max_take"}.get(key, key)] = _int_option(value, f"--{key}")
        else:
            raise InvalidPositionError(f"unknown option {key!r}; known: {', '.join(known)}")
    return GameOptions(**values)


def load_game(spec: str) -> CatalogueGame[Any]:
    """The game of a canonical spec string: ``name`` or ``name(arg;arg)``.

    Arguments are ``misere``, ``S=1,3,4``, ``max=K``, ``additions=K``, ``cap=C``,
    ``skips=A,B`` and, for ``octal``, the code itself (``octal(0.07)``).
    """
    text = spec.strip()
    name, _, rest = text.partition("(")
    if rest and not rest.endswith(")"):
        raise InvalidPositionError(f"invalid game spec {spec!r}: missing ')'")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest[:-1].split(";"))) if rest else []:
        key, sep, value = item.partition("=")
        if not sep:
            if key == "misere":
                options["misere"] = True
            else:
                options["code"] = key
        elif key == "S":
            options["subtraction_set"] = parse_int_list(value, "S", minimum=1)
        elif key == "skips":
            options["skips"] = parse_skips(value)
        elif key in ("max", "additions", "cap", "row"):
            options[{"max": "max_take"}.get(key, key)] = _parse_int(value, key)
        else:
            raise InvalidPositionError(f"invalid game spec {spec!r}: unknown argument {key!r}")
    return make_game(name, GameOptions(**options))
