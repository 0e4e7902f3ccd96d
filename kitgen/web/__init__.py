"""``kitgen serve``: a local web app beside the command line, over the same library.

``app.create_app(games)`` is the Starlette app: the live preview of each game
folder (:mod:`.live`, :mod:`.preview`), the solver page and JSON API
(:mod:`.solving`), the simulator page (:mod:`.simulation`).  Builds, page
pictures and simulations run in worker processes (:mod:`.worker`) with time
and memory limits.  Pages are the package's own templates (``pages/``) and
plain JavaScript and CSS (``static/``); nothing is fetched from the internet.
"""
