"""A toy trick-taking game declared outside ``sim`` through the path a fifth game takes
(docs/architecture.md): its module (``game``), its card play (``cardplay``), its lookahead
player (``lookahead``, with its worlds in ``worlds``), its trace codec (``trace``) and its
table screen (``screen``). ``tests/test_toy_game.py`` registers it and runs the invariant,
card-play, trace, runner and lookahead tests on it."""
