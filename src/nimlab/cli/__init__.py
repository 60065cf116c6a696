"""The ``nimlab`` command line: parsing and rendering only; the work is done by the library."""
