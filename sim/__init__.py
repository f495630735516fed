"""stichsim: Monte Carlo simulation of trick-taking card games."""

__version__ = "0.1.0"
