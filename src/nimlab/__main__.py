"""``python -m nimlab`` runs the command line."""

from nimlab.cli.main import main

if __name__ == "__main__":
    main()
