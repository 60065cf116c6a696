"""The papers' tables and claims checked and written as reports (``nimlab reproduce``): one
module per report; the one place besides the CLI and the web app that reads the store and specs.

>>> sorted(name for name in __all__)
['hidden_games', 'hidden_partizan', 'misere_census', 'nim_variants', 'scoring_nim']
"""

from nimlab.reports import hidden_games, hidden_partizan, misere_census, nim_variants, scoring_nim

__all__ = [
    "hidden_games",
    "hidden_partizan",
    "misere_census",
    "nim_variants",
    "scoring_nim",
]
