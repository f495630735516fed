"""The base of every error a user's input can cause.

Bad input (a config, an option, a results folder that is in the way) raises a
``StichsimError`` (a ``ValueError``) with one line naming the problem and what
is allowed; the CLI prints that line and exits with status 2. Anything else is
a bug and keeps its traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence


class StichsimError(ValueError):
    """Bad input from the user: the message is one line, shown as is."""


class ConfigError(StichsimError):
    """A malformed or invalid experiment file."""


class ResultsError(StichsimError):
    """A results folder that cannot be written, resumed or replaced as asked."""


def did_you_mean(words: Sequence[str], known: Iterable[str]) -> str:
    """The end of an error's line naming the known name closest to each misspelled word
    (``difflib``), or ``""`` where none is close: a typo costs one look, not a hunt through
    the list of what is allowed.

    >>> did_you_mean(["skatt"], ["skat", "doko_duell"])
    "; did you mean 'skat'?"
    >>> did_you_mean(["deal", "sed"], ["deals", "seed"])
    "; did you mean 'deals' for 'deal', 'seed' for 'sed'?"
    >>> did_you_mean(["poker"], ["skat", "doko_duell"])
    ''
    """
    names = [str(k) for k in known]
    close = {w: m[0] for w in words if (m := difflib.get_close_matches(str(w), names, n=1))}
    if not close:
        return ""
    if len(words) == 1:
        return f"; did you mean {close[words[0]]!r}?"
    return "; did you mean " + ", ".join(f"{m!r} for {w!r}" for w, m in close.items()) + "?"


__all__ = ["ConfigError", "ResultsError", "StichsimError", "did_you_mean"]
