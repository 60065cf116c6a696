"""Playing against the computer, shared by ``nimlab play`` and the web playground (neither
HTTP nor a terminal is known here).

- :mod:`nimlab.play.impartial`: a catalogue game at one position, its moves, hints and the
  computer's replies (with :mod:`nimlab.play.allowance` for games that count moves);
- :mod:`nimlab.play.partisan`: red-blue Hackenbush, Blue against Red;
- :mod:`nimlab.play.scoring`: Scoring Nim at one bonus N, both scores and every move's gain;
- :mod:`nimlab.play.hidden`: the hidden-information variants of Nim and of catalogue games,
  a match moving through the solved game tree.
"""

__all__: list[str] = []  # the public names are the modules above
