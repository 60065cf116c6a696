"""``python -m nimlab`` runs the command line."""

from nimlab.cli.main import main

main()
