"""Search: what a seat cannot see dealt from its observation (``worlds``), and each game's
worlds and outcomes for the lookahead player (``sim.policies.lookahead``)."""
