"""The ``nimlab`` command line: parsing and rendering only; the work is done by the library."""

__all__: list[str] = []  # the commands are the modules (cli/main.py gathers them)
