"""``stichsim serve``: the table of ``stichsim play`` as a local web page.

``tables`` keeps the tables in memory (one per browser tab, each a series of deals),
``view`` turns a table's moment into the JSON its seat may see (built from the terminal's
screens, ``sim.play``), ``app`` is the web application (routes, one-line errors) and
``static/`` the page (one HTML, one JS, one CSS file; the cards are SVG drawn by the JS).
"""
