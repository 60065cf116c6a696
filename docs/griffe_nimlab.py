r"""A griffe extension for the API reference: nimlab's docstrings read as Markdown.

The docstrings are written for ``help()`` and doctests: reST literals (````x````), roles
(``:func:`x```) and doctest examples (``>>> ...``). Read as Markdown, the examples would be
quoted paragraphs; this extension fences them as Python console code, and turns the literals and
roles into Markdown code spans. mkdocstrings loads it from ``mkdocs.yml``.

>>> text = "See :func:`~nimlab.grundy.grundy_value`, ``x``.\n\n>>> 1 + 1\n2"
>>> markdown_docstring(text).split("\n")
['See `grundy_value`, `x`.', '', '```pycon', '>>> 1 + 1', '2', '```']
"""

from __future__ import annotations

import re
from typing import Any

import griffe

__all__ = ["NimlabDocstrings", "markdown_docstring"]

_ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`~?([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``")


def _role(match: re.Match[str]) -> str:
    target = match.group(1)
    whole = match.group(0)
    shown = target.rsplit(".", 1)[-1] if "`~" in whole else target
    return f"`{shown}`"


def markdown_docstring(text: str) -> str:
    """``text`` with doctest blocks fenced and reST literals and roles as code spans."""
    lines = text.splitlines()
    result: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while index < len(lines) and lines[index].strip():
                block.append(lines[index])
                index += 1
            result.append(f"{indent}```pycon")
            result.extend(block)
            result.append(f"{indent}```")
            continue
        result.append(_LITERAL.sub(r"`\1`", _ROLE.sub(_role, line)))
        index += 1
    return "\n".join(result)


class NimlabDocstrings(griffe.Extension):
    """Rewrites every docstring once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring (if it has one of its own)."""
        if obj.docstring is not None and "```pycon" not in obj.docstring.value:
            obj.docstring.value = markdown_docstring(obj.docstring.value)
