"""Learned players: the decisions they are taught from (``sim.learn.decisions``)."""
