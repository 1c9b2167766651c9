"""Issue 48, end to end: a hundred images from one HTTP/2 server land, over one connection.

The server is nghttpd over TLS on 127.0.0.1 (http2_server.py), with a certificate the app trusts through
IMAGE_GALLERY_TEST_CA_FILE; the images are in a library's state file, which the app keeps at its launch."""
import harness
from http2_server import HTTP2Server
from test_hostile_servers import state_of


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
