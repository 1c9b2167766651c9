"""Issue 48, end to end: what a launch loads. libcurl is opened by the first download and OpenSSL's libcrypto by the
first digest of an image's bytes, neither linked: a launch that downloads and keeps nothing maps neither, nor the
libraries libcurl needs (GnuTLS, Kerberos, LDAP...); a launch whose gallery downloads a picture opens libcurl, and the
picture arrives. A release build has Swift's runtime and Foundation linked in: it maps none of their shared libraries."""
import os

import pytest

import harness

# libcurl, libraries only it brings into the app (through librtmp, libldap and GSSAPI), and OpenSSL's.
OPENED_WHEN_USED = ("libcurl", "libgnutls", "libldap", "libgssapi_krb5", "librtmp", "libssh2", "libcrypto", "libssl")


def mapped_libraries(app):
    with open("/proc/%d/maps" % app.proc.pid) as maps:
        return {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}


def opened_when_used(app):
    return sorted(name for name in mapped_libraries(app) if name.startswith(OPENED_WHEN_USED))


def started_on_a_local_file(make_app, tmp_path):
    """The app started on a gallery of one image from a file, once its cell is loaded."""
    path = tmp_path / "red.png"
    path.write_bytes(harness.png_bytes(64, 48, (220, 20, 20)))
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i", "url": harness.file_url(str(path)), "aspectRatio": 64 / 48}]}]})
    app.start()
    app.wait_cells(lambda cells: len(cells) == 1 and not cells[0].loading, what="the file's cell loaded")
    return app


def test_a_launch_that_downloads_and_keeps_nothing_maps_neither_libcurl_nor_openssl(make_app, tmp_path):
    app = started_on_a_local_file(make_app, tmp_path)
    assert opened_when_used(app) == []


def test_the_first_download_opens_libcurl(make_app, http_server):
    image = http_server.add_image("teal", 64, 48, (20, 160, 160))
    app = make_app({"version": 1, "galleries": [{"id": "g", "name": "Gallery", "images": [
        {"id": "i", "url": image.url, "aspectRatio": image.aspect}]}]})
    app.start()
    app.wait_cells(lambda cells: len(cells) == 1 and not cells[0].loading, what="the downloaded cell loaded")
    assert [name for name in mapped_libraries(app) if name.startswith("libcurl.so")], sorted(mapped_libraries(app))
    assert http_server.hits(image.path) >= 1, [r.path for r in http_server.requests()]


def test_a_release_build_maps_no_shared_swift_runtime(make_app, app_binary, tmp_path):
    if os.sep + "release" + os.sep not in os.path.realpath(app_binary):
        pytest.skip("a debug build links Swift's runtime as shared libraries, which Swift Testing uses too; "
                    "Tests/run-all.sh runs this file again on its release build")
    app = started_on_a_local_file(make_app, tmp_path)
    assert sorted(name for name in mapped_libraries(app) if name.startswith(("libswift", "libFoundation"))) == []
