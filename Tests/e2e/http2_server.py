"""An HTTP/2 server on 127.0.0.1 over TLS: Debian's `nghttpd` (package nghttp2-server) serving a folder, with a
certificate for 127.0.0.1 signed by a certificate authority of its own, made with `openssl` for each server.

The app trusts that authority alone when started with `IMAGE_GALLERY_TEST_CA_FILE` naming `ca_file` (`env()`).
nghttpd logs every frame of every session, numbered, so `connections()` counts the connections clients opened."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time

from harness import HarnessError


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_certificates(folder):
    """A test authority and a certificate for 127.0.0.1 it signed, made in `folder`: (authority, key, certificate)."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, cwd=folder, capture_output=True)

    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *curve, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=Image Gallery test authority")
    openssl("req", *curve, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(folder, "server.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "server.ext")
    return (os.path.join(folder, "ca.pem"), os.path.join(folder, "server.key"), os.path.join(folder, "server.pem"))


class HTTP2Server:
    def __init__(self, files, folder=None):
        """Serves `files` ({name: bytes}) at /<name>."""
        self.own_folder = folder is None
        self.folder = folder or tempfile.mkdtemp(prefix="gallery-http2-")
        self.root = os.path.join(self.folder, "htdocs")
        os.makedirs(self.root, exist_ok=True)
        for name, data in files.items():
            with open(os.path.join(self.root, name), "wb") as f:
                f.write(data)
        self.ca_file = os.path.join(self.folder, "ca.pem")
        key, certificate = self._certificates()
        self.log = os.path.join(self.folder, "frames.log")
        # A port another process takes between the look and the listen only costs a try.
        for _ in range(5):
            self.port = _free_port()
            with open(self.log, "wb") as log:
                self.proc = subprocess.Popen(
                    ["nghttpd", "--verbose", "--address=127.0.0.1", "--htdocs=" + self.root, str(self.port), key,
                     certificate], stdout=log, stderr=subprocess.STDOUT)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.proc.poll() is None:
                if ("listen 127.0.0.1:%d" % self.port) in self._log_text():
                    return
                time.sleep(0.02)
            self.stop()
        raise HarnessError("nghttpd did not start: %s" % self._log_text()[-2000:])

    def _certificates(self):
        self.ca_file, key, certificate = make_certificates(self.folder)
        return key, certificate

    def _log_text(self):
        with open(self.log, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def url(self, name):
        return "https://127.0.0.1:%d/%s" % (self.port, name)

    def env(self):
        """What the app's environment needs to trust this server."""
        return {"IMAGE_GALLERY_TEST_CA_FILE": self.ca_file}

    def connections(self):
        """The sessions (connections) clients opened so far."""
        return len(set(re.findall(r"^\[id=(\d+)\]", self._log_text(), re.MULTILINE)))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()  # nghttpd ends at no signal it can catch
            self.proc.wait()

    def remove(self):
        """Stops the server and removes the folder it made."""
        self.stop()
        if self.own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)
