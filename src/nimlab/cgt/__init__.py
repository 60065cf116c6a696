"""Short partizan games as exact canonical values, and rulesets valued by them.

>>> from nimlab.cgt import parse_game, domineering
>>> g = parse_game("{2|-1/2} + ^*")
>>> str(g), g.outcome, str(g.mean), str(g.temperature)
('{2^*|-1/2^*}', 'N', '3/4', '5/4')
>>> str(domineering("../.."))
'±1'
"""

from nimlab.cgt.game import (
    ZERO,
    Game,
    game,
    integer,
    miny,
    number,
    star,
    sum_games,
    switch,
    tiny,
    up,
)
from nimlab.cgt.notation import format_game, parse_game
from nimlab.cgt.rulesets.domineering import domineering
from nimlab.cgt.rulesets.hackenbush import hackenbush
from nimlab.cgt.thermograph import Thermograph, Trajectory, thermograph_of

__all__ = [
    "ZERO",
    "Game",
    "Thermograph",
    "Trajectory",
    "domineering",
    "format_game",
    "game",
    "hackenbush",
    "integer",
    "miny",
    "number",
    "parse_game",
    "star",
    "sum_games",
    "switch",
    "thermograph_of",
    "tiny",
    "up",
]
