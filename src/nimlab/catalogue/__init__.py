"""The game catalogue: every game of the catalogue article (and more): rules, closed forms, checks.

>>> from nimlab.catalogue import analyze, make_game
>>> analyze(make_game("wythoff"), "3,5").outcome.value
'P'
"""

import importlib

from nimlab.catalogue.analysis import GameAnalysis, GrundyTable, analyze, grundy_table
from nimlab.catalogue.base import CatalogueGame, CatalogueMove, GameOptions
from nimlab.catalogue.registry import (
    find_game,
    game_names,
    load_game,
    make_game,
    options_from_mapping,
    register,
    registered_games,
)

#: The game modules, imported (and so registered) in this order.
GAME_MODULES = (
    "nim",
    "subtraction",
    "wythoff",
    "staircase",
    "coins",
    "poker_nim",
    "skip_nim",
    "turtles",
    "silver_dollar",
    "prime_power",
    "green_hackenbush",
    "red_blue_hackenbush",
    "partizan",
    "octal_games",
)
for _module in GAME_MODULES:
    importlib.import_module(f"nimlab.catalogue.{_module}")

__all__ = [
    "GAME_MODULES",
    "CatalogueGame",
    "CatalogueMove",
    "GameAnalysis",
    "GameOptions",
    "GrundyTable",
    "analyze",
    "find_game",
    "game_names",
    "grundy_table",
    "load_game",
    "make_game",
    "options_from_mapping",
    "register",
    "registered_games",
]
