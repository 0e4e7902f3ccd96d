"""``kitgen serve``: a local web page with a live preview, the solver and the simulator."""

from __future__ import annotations

import click


@click.command()
@click.argument("games", nargs=-1)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the server answers only to the names of this address (and "
                   "localhost for a loopback one). Anything but a loopback address lets others connect.")
def serve(games, port, host):
    """Serve GAMES (built-in names or folders; default altun-ha) on a local web page.

    The preview rebuilds as files change; a game whose game.toml names a rules
    engine also gets the solver and simulator pages.  Stop with Ctrl-C.
    """
    from kitgen.web.app import WebServer, check_address, create_app
    from kitgen.web.trust import loopback

    check_address(host, port)
    app = create_app(list(games) or ["altun-ha"], host=host)
    if not loopback(host):
        click.echo(f"Warning: listening on {host}: anyone who can reach this address can read the served "
                   "game folders and use the solver", err=True)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Serving {', '.join(g.served.title for g in app.state.server.live.values())} at "
               f"http://{shown}:{port}/  (Ctrl-C stops)")
    WebServer(app, host, port).run()
