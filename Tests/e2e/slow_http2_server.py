"""An HTTP/2 server on 127.0.0.1 over TLS that answers each request after a delay, which `nghttpd` cannot do: a
one-second server, in Python with Debian's python3-h2 (the sans-I/O HTTP/2 state machine) on one asyncio thread.

It shares `HTTP2Server`'s certificates (`make_certificates`: a test authority of its own, trusted by the app through
`IMAGE_GALLERY_TEST_CA_FILE`, `env()`), speaks HTTP/2 alone (ALPN "h2"), and counts the connections clients opened
and the most streams one connection carried at once. `ports` > 1 listens on that many ports, one server each to a
client, all under the one authority."""
import asyncio
import shutil
import ssl
import tempfile
import threading
import time

import h2.config
import h2.connection
import h2.events
import h2.exceptions

from asyncio_servers import stop_servers
from http2_server import make_certificates


class SlowHTTP2Server:
    def __init__(self, files, delay=1.0, ports=1):
        """Serves `files` ({name: bytes, or the path of a file read when asked}) at /<name>, each answer `delay`
        seconds after its request."""
        self.files, self.delay = files, delay
        self.folder = tempfile.mkdtemp(prefix="gallery-slow-http2-")
        self.ca_file, key, certificate = make_certificates(self.folder)
        self.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.tls.load_cert_chain(certificate, key)
        self.tls.set_alpn_protocols(["h2"])
        self.reset()
        self.loop = asyncio.new_event_loop()
        started = threading.Event()

        async def serve():
            self.servers = [await asyncio.start_server(self.connection, "127.0.0.1", 0, ssl=self.tls, backlog=128)
                            for _ in range(ports)]
            started.set()
            await asyncio.gather(*(server.serve_forever() for server in self.servers))

        self.thread = threading.Thread(target=lambda: self.loop.run_until_complete(self._quietly(serve())),
                                       daemon=True)
        self.thread.start()
        if not started.wait(10):
            raise RuntimeError("the slow HTTP/2 server did not start")
        self.ports = [server.sockets[0].getsockname()[1] for server in self.servers]
        self.port = self.ports[0]
        names = sorted(files)
        # the names spread over the ports in turn, as `SlowServer` in versus_gthumb.py does
        self.urls = ["https://127.0.0.1:%d/%s" % (self.ports[i % ports], name) for i, name in enumerate(names)]

    def reset(self):
        self.opened = 0
        self.most_streams = 0
        self.requested = []  # monotonic times the requests came in

    @property
    def hits(self):
        return len(self.requested)

    @staticmethod
    async def _quietly(coroutine):
        try:
            await coroutine
        except asyncio.CancelledError:
            pass

    def url(self, name):
        return "https://127.0.0.1:%d/%s" % (self.port, name)

    def env(self):
        """What the app's environment needs to trust this server."""
        return {"IMAGE_GALLERY_TEST_CA_FILE": self.ca_file}

    def connections(self):
        """The connections clients opened so far."""
        return self.opened

    async def connection(self, reader, writer):
        self.opened += 1
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        h2c.initiate_connection()
        writer.write(h2c.data_to_send())
        pending = {}  # stream -> the body left to send, once its delay has passed
        open_streams = set()

        def flush():
            for stream, body in list(pending.items()):
                while body:
                    try:
                        room = min(h2c.local_flow_control_window(stream), h2c.max_outbound_frame_size, len(body))
                    except h2.exceptions.StreamClosedError:
                        body = b""
                        break
                    if room <= 0:
                        break
                    h2c.send_data(stream, body[:room], end_stream=room == len(body))
                    body = body[room:]
                if body:
                    pending[stream] = body
                else:
                    del pending[stream]
                    open_streams.discard(stream)
            writer.write(h2c.data_to_send())

        async def answer(stream, path):
            await asyncio.sleep(self.delay)
            if stream not in open_streams:  # the client reset it meanwhile
                return
            data = self.files.get(path.lstrip("/").split("?")[0])
            if isinstance(data, str):
                with open(data, "rb") as f:
                    data = f.read()
            try:
                if data is None:
                    h2c.send_headers(stream, [(":status", "404"), ("content-length", "0")], end_stream=True)
                    open_streams.discard(stream)
                else:
                    h2c.send_headers(stream, [(":status", "200"), ("content-length", str(len(data)))])
                    pending[stream] = data
                flush()
                await writer.drain()
            except (ConnectionError, h2.exceptions.ProtocolError):
                pass

        tasks = set()
        try:
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                for event in h2c.receive_data(chunk):
                    if isinstance(event, h2.events.RequestReceived):
                        self.requested.append(time.monotonic())
                        open_streams.add(event.stream_id)
                        self.most_streams = max(self.most_streams, len(open_streams))
                        path = dict(event.headers).get(":path", "/")
                        task = asyncio.ensure_future(answer(event.stream_id, path))
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                    elif isinstance(event, h2.events.StreamReset):
                        pending.pop(event.stream_id, None)
                        open_streams.discard(event.stream_id)
                    elif isinstance(event, h2.events.ConnectionTerminated):
                        return
                flush()
                await writer.drain()
        except (ConnectionError, ssl.SSLError, h2.exceptions.ProtocolError):
            pass
        finally:
            for task in tasks:
                task.cancel()
            writer.close()

    def remove(self):
        """Stops the server and removes its certificates."""
        stop_servers(self.loop, self.thread, self.servers)
        shutil.rmtree(self.folder, ignore_errors=True)

    stop = remove
