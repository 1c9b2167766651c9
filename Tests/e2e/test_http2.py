"""Issue 48, end to end: a hundred images from one HTTP/2 server land, over one connection; a slow one is asked for
more than a connection cap's worth of them before its first answer.

The server is nghttpd over TLS on 127.0.0.1 (http2_server.py), or a Python one that answers after a delay
(slow_http2_server.py), with a certificate the app trusts through IMAGE_GALLERY_TEST_CA_FILE; the images are in a
library's state file, which the app keeps at its launch."""
import harness
from http2_server import HTTP2Server
from slow_http2_server import SlowHTTP2Server
from test_hostile_servers import state_of

CONNECTIONS_PER_SERVER = 6  # ImageLimits.maximumConnectionsPerHost


def test_a_hundred_images_from_one_http2_server_land_over_one_connection(make_app):
    files = {"%d.png" % i: harness.png_bytes(12, 8, (i * 2, 255 - i * 2, 90)) for i in range(100)}
    server = HTTP2Server(files)
    try:
        app = make_app(state_of([server.url(name) for name in files]), env_overrides=server.env())
        app.start()
        app.wait_every_image_kept(60)
        assert server.connections() == 1
    finally:
        server.remove()


def test_a_slow_http2_server_is_asked_for_its_images_before_it_first_answers(make_app):
    # Its TLS handshake agreed on HTTP/2, so the transfers the per-server cap held back go on its one connection at
    # once rather than a slow answer later.
    files = {"%d.png" % i: harness.png_bytes(12, 8, (i * 10, 255 - i * 10, 90)) for i in range(20)}
    server = SlowHTTP2Server(files, delay=2.0)
    try:
        app = make_app(state_of(server.urls), env_overrides=server.env())
        app.start()
        app.wait_every_image_kept(60)
        first_answer = min(server.requested) + server.delay
        asked_before = sum(1 for asked in server.requested if asked < first_answer)
        assert asked_before > CONNECTIONS_PER_SERVER, (asked_before, server.requested)
        assert server.connections() == 1
    finally:
        server.remove()
