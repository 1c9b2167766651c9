"""Fixtures for the end-to-end tests (see the harness package and README.md).

  desktop      (session) Xvfb + D-Bus session bus + AT-SPI bus; harness.Desktop (screenshot, drag, key, ...)
  http_server  (test)    harness.ImageServer on 127.0.0.1, stopped after the test
  make_app     (test)    factory: make_app(state=None, env_overrides=None, **App kwargs) -> harness.App, each with
                         its own XDG directories under the test's tmp_path; all stopped after the test. When the
                         test failed, a screenshot, each app's stderr, state.json and its library as
                         `--print-state` prints it go to the artifacts folder
                         ($E2E_ARTIFACTS, default /tmp/image-gallery-e2e-artifacts/<test>/).
  app_binary             the binary the tests launch ($IMAGE_GALLERY_BIN or .build/debug/image-gallery)
"""
import os
import re
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

ARTIFACTS = os.environ.get("E2E_ARTIFACTS") or os.path.join(tempfile.gettempdir(), "image-gallery-e2e-artifacts")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


def _failed(request):
    report = getattr(request.node, "rep_call", None)
    return report is None or report.failed


@pytest.fixture(scope="session")
def desktop():
    d = harness.start_desktop()
    yield d
    harness.stop_desktop()


@pytest.fixture
def http_server():
    server = harness.ImageServer()
    yield server
    server.stop()


@pytest.fixture
def app_binary():
    return os.environ.get("IMAGE_GALLERY_BIN") or harness.DEFAULT_BINARY


@pytest.fixture
def make_app(desktop, tmp_path, request, app_binary):
    apps = []

    def factory(state=None, env_overrides=None, **kw):
        kw.setdefault("root", str(tmp_path / ("app%d" % len(apps))))
        kw.setdefault("binary", app_binary)
        app = harness.App(state, env_overrides, desktop=desktop, **kw)
        apps.append(app)
        return app

    yield factory

    if _failed(request):
        folder = os.path.join(ARTIFACTS, re.sub(r"[^\w.-]+", "_", request.node.nodeid))
        os.makedirs(folder, exist_ok=True)
        try:
            desktop.screenshot(os.path.join(folder, "screen-at-failure.png"))
        except Exception as e:  # the report must not hide the test's own failure
            print("could not take the failure screenshot: %r" % e)
        for i, app in enumerate(apps):
            for name in os.listdir(app.root):
                if name.endswith(".log"):
                    shutil.copy(os.path.join(app.root, name), os.path.join(folder, "app%d-%s" % (i, name)))
            if os.path.exists(app.state_path):
                shutil.copy(app.state_path, os.path.join(folder, "app%d-state.json" % i))
            status, out, err = harness._safe(app.print_state, (None, b"", "(it did not run)"))
            with open(os.path.join(folder, "app%d-print-state.json" % i), "wb") as f:
                f.write(out if status == 0 else err.encode())
            if app.running:
                with open(os.path.join(folder, "app%d-accessible-tree.txt" % i), "w") as f:
                    f.write(harness._safe(app.dump_tree, "(unreadable)"))
        print("e2e artifacts of the failure: %s" % folder)
    for app in apps:
        app.stop(check=False)
