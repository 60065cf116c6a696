"""OpenSpiel both ways (the optional extra ``openspiel``).

OpenSpiel games solved exactly: :func:`~nimlab.openspiel.walk.load` and
:func:`~nimlab.openspiel.walk.walk` turn a game string into the sequence-form ingredients that
:func:`~nimlab.equilibrium.efg_solve.solve_efg` certifies (``nimlab solve-openspiel``). nimlab's
hidden-information variants as OpenSpiel games: :func:`~nimlab.openspiel.games.game_string`
names them for ``pyspiel.load_game``; importing this package registers them when OpenSpiel is
installed (and imports without it).

>>> game_string("sn", (3, 3, 1))
'nimlab_sn(heaps=3;3;1,misere=False)'
"""

from __future__ import annotations

from importlib.util import find_spec

from nimlab.openspiel.games import game_string, register
from nimlab.openspiel.walk import OpenSpielGameError, load, walk

__all__ = ["OpenSpielGameError", "game_string", "load", "register", "walk"]

if find_spec("pyspiel") is not None:
    register()
