"""The analysis layer: reads results, never simulates (no ``sim`` imports here).

``load`` scans an experiment's Parquet shards lazily, ``stats`` holds the interval and
sample-size functions, ``balance`` answers the balance questions as tidy tables,
``plots`` draws those tables and ``report`` writes them up as HTML and Markdown.
"""
