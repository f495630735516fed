"""The base of every error a user's input can cause.

Bad input (a config, an option, a results folder that is in the way) raises a
``StichsimError`` (a ``ValueError``) with one line naming the problem and what
is allowed; the CLI prints that line and exits with status 2. Anything else is
a bug and keeps its traceback.
"""

from __future__ import annotations


class StichsimError(ValueError):
    """Bad input from the user: the message is one line, shown as is."""


class ConfigError(StichsimError):
    """A malformed or invalid experiment file."""


class ResultsError(StichsimError):
    """A results folder that cannot be written, resumed or replaced as asked."""


__all__ = ["ConfigError", "ResultsError", "StichsimError"]
