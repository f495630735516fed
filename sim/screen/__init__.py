"""What a game's table screen is made from: questions with numbered choices and the cards shown
in suit order (``questions``), and the browser's board as data (``board``). Each game's package
has a ``screen`` module built from them; ``sim.play`` and ``sim.serve`` put it in front of a
person."""
