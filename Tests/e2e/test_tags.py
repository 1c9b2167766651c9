"""Issue 32, end to end: tags. Three selected images get a tag with Ctrl+T and real keys, saved in the library;
it is removed from one of them with its Remove button, and Ctrl+Z brings it back. Manage Tags (the main menu)
renames a tag in place, with the tags nested in it, on every image; renaming onto a tag in use asks before
merging. The dialog speaks French and Russian; ten thousand tags and a long one open, are found and renamed.

Run from the repository root with Debian's python (pyatspi):
    /usr/bin/python3 -m pytest -p no:cacheprovider Tests/e2e/test_tags.py -x -v
"""
import os
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from drag_helpers import by_name, click, click_node, gallery_state  # noqa: E402
from harness import wait_until  # noqa: E402

SPECS = harness.DISTINCT_IMAGES[:3]
FRENCH = {"LANG": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": "fr"}


def start(make_app, http_server, tags=None, env=None, **kw):
    served = [http_server.add_image(*spec) for spec in SPECS]
    state = gallery_state(served)
    for image, image_tags in zip(state["galleries"][0]["images"], tags or []):
        if image_tags:
            image["tags"] = image_tags
    app = make_app(state, env, **kw)
    app.start()
    return app, by_name(app.wait_settled(len(SPECS)))


def saved_tags(app):
    return [image.get("tags", []) for image in app.state()["galleries"][0]["images"]]


def wait_saved(app, expected, what):
    return wait_until(lambda: saved_tags(app) == expected, 15, 0.1, what, lambda: "saved: %r" % saved_tags(app))


def dialog(app, title, timeout=15):
    return app.wait_for_object(title, timeout=timeout)


def gone(app, title, timeout=10):
    wait_until(lambda: app.find_by_name(title) is None, timeout, 0.1, "%r to close" % title)


def test_ctrl_t_tags_three_images_one_loses_it_and_undo_brings_it_back(make_app, http_server, desktop):
    app, cells = start(make_app, http_server)
    click(desktop, cells[SPECS[0][0]].center)
    app.key("ctrl+a")
    app.wait_cells(lambda cs: all(c.selected for c in cs), 10, what="all three selected")
    app.key("ctrl+t")
    window = dialog(app, "Tags of 3 Images")
    entry = app.wait_for_object("New tag", harness.ROLE.TEXT, timeout=10)
    wait_until(lambda: entry.has_state("FOCUSED"), 10, 0.1, "the entry to have the keyboard")
    app.desktop.type_text("kitchen wall")
    app.key("Return")
    wait_saved(app, [["kitchen wall"]] * 3, "the tag on the three images")
    # A second tag, its parts trimmed; the list shows both, each with its Remove button.
    app.desktop.type_text(" colour / red ")
    app.key("Return")
    wait_saved(app, [["kitchen wall", "colour/red"]] * 3, "the nested tag")
    assert app.wait_for_object("Remove “colour/red”", harness.ROLE.PUSH_BUTTON, root=window, timeout=10)
    app.key("Escape")
    gone(app, "Tags of 3 Images")

    # One image alone: its Remove button takes the tag off it, the others keep it.
    green = by_name(app.cells())[SPECS[1][0]]
    click(desktop, green.center)
    app.wait_cells(lambda cs: [c.selected for c in cs] == [False, True, False], 10, what="the second alone")
    app.key("ctrl+t")
    window = dialog(app, "Tags of 1 Image")
    click_node(desktop, app.wait_for_object("Remove “kitchen wall”", harness.ROLE.PUSH_BUTTON, root=window))
    wait_saved(app, [["kitchen wall", "colour/red"], ["colour/red"], ["kitchen wall", "colour/red"]],
               "the tag off the second image")
    wait_until(lambda: app.find_by_name("Remove “kitchen wall”", root=window) is None, 10, 0.1, "its row to go")
    app.key("Escape")
    gone(app, "Tags of 1 Image")
    app.key("ctrl+z")
    wait_saved(app, [["kitchen wall", "colour/red"]] * 3, "undo to bring the tag back")

    # The properties pane shows them.
    app.key("alt+Return")
    pane = app.wait_for_object("Image Properties", timeout=15)
    tags = wait_until(lambda: [label.description for label in app.find_all(
        lambda a: a.role == harness.ROLE.LABEL and a.name == "Tags" and a.description, pane)], 10, 0.1, "the tags row")
    assert tags == ["kitchen wall, colour/red"]
    assert app.find_by_name("Edit Tags…", harness.ROLE.PUSH_BUTTON, root=pane)


def open_manage_tags(app, timeout=15):
    app.wait_for_object("Main Menu", "toggle button", timeout=timeout).do_action(0)
    time.sleep(0.4)
    app.wait_for_object("Manage Tags…", "push button", timeout=timeout).do_action(0)
    return dialog(app, "Manage Tags", timeout)


def rename_in_place(app, desktop, window, old, new, timeout=10):
    entry = app.wait_for_object(old, harness.ROLE.TEXT, root=window, timeout=timeout)
    click_node(desktop, entry)
    wait_until(lambda: entry.has_state("FOCUSED"), timeout, 0.1, "the %r entry to have the keyboard" % old)
    app.key("ctrl+a")
    app.desktop.type_text(new)
    app.key("Return")


def test_manage_tags_renames_a_parent_everywhere_and_asks_before_a_merge(make_app, http_server, desktop):
    app, _ = start(make_app, http_server, tags=[["colour/red", "cat"], ["colour"], ["kitty", "colours"]])
    window = open_manage_tags(app)
    # Every tag with its parents, and how many images carry each.
    counts = {name: app.wait_for_object(name, harness.ROLE.TEXT, root=window).description
              for name in ("cat", "colour", "colour/red", "colours", "kitty")}
    assert counts == {"cat": "1 image", "colour": "2 images", "colour/red": "1 image", "colours": "1 image",
                      "kitty": "1 image"}
    rename_in_place(app, desktop, window, "colour", "hue")
    wait_saved(app, [["hue/red", "cat"], ["hue"], ["kitty", "colours"]], "the rename on every image")
    app.wait_for_object("hue/red", harness.ROLE.TEXT, root=window, timeout=10)

    # Onto a tag in use: a question first; Merge leaves one tag on the image that had both.
    rename_in_place(app, desktop, window, "kitty", "Cat")
    app.wait_for_object("Merge “kitty” into “Cat”?", timeout=10)
    assert saved_tags(app)[2] == ["kitty", "colours"]
    click_node(desktop, app.wait_for_object("Merge", harness.ROLE.PUSH_BUTTON, timeout=10))
    wait_saved(app, [["hue/red", "Cat"], ["hue"], ["Cat", "colours"]], "the merge")
    app.key("Escape")
    gone(app, "Manage Tags")
    app.key("ctrl+z")
    wait_saved(app, [["hue/red", "cat"], ["hue"], ["kitty", "colours"]], "undo of the merge")


LANGUAGES = {
    "fr": dict(env=FRENCH, app_name="Galerie d’images", gallery_name="Galerie", title="Étiquettes de 3 images",
               entry="Nouvelle étiquette", remove="Retirer « chat »", some="sur 1 des 3 images",
               add_all="Ajouter « chat » à toutes"),
    # Russian has three plural forms: "of 3" takes the genitive plural.
    "ru": dict(env={"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LANGUAGE": "ru"},
               app_name="Галерея изображений", gallery_name="Коллекция", title="Метки 3 изображений",
               entry="Новая метка", remove="Убрать «chat»", some="на 1 из 3 изображений",
               add_all="Добавить «chat» ко всем"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tags_dialog_speaks_the_users_language(make_app, http_server, desktop, language):
    words = LANGUAGES[language]
    app, cells = start(make_app, http_server, tags=[["chat"], [], []], env=words["env"],
                       app_name=words["app_name"], gallery_name=words["gallery_name"])
    click(desktop, cells[SPECS[0][0]].center)
    app.key("ctrl+a")
    # Keys come in order: the dialog's title says it is about the three.
    app.key("ctrl+t")
    window = dialog(app, words["title"])
    app.wait_for_object(words["entry"], harness.ROLE.TEXT, root=window, timeout=10)
    assert app.find_by_name(words["remove"], harness.ROLE.PUSH_BUTTON, root=window)
    assert app.find_by_name(words["some"], harness.ROLE.LABEL, root=window)
    assert app.find_by_name(words["add_all"], harness.ROLE.PUSH_BUTTON, root=window)


def test_ten_thousand_tags_and_a_long_one_open_find_and_rename(make_app, http_server, desktop):
    long = "é" * 1000
    many = ["tag %05d" % n for n in range(10000)]
    app, cells = start(make_app, http_server, tags=[many + [long], [], []])
    # A machine loaded by other work may take a while over ten thousand tags: the waits are long, not timed.
    window = open_manage_tags(app, timeout=60)
    # A list of widgets shows the first tags; the rest are a count away, and Find reaches any of them.
    app.wait_for_object("tag 00000", harness.ROLE.TEXT, root=window, timeout=60)
    more = wait_until(lambda: app.find_by_name("more tags: type to find them", harness.ROLE.LABEL, contains=True,
                                               root=window), 60, 0.1, "the count of tags not shown")
    assert "".join(ch for ch in more.name if ch.isdigit()) == "9801"
    click_node(desktop, app.wait_for_object("Find a tag", harness.ROLE.TEXT, root=window, timeout=60))
    app.desktop.type_text("09999")
    app.wait_for_object("tag 09999", harness.ROLE.TEXT, root=window, timeout=60)
    wait_until(lambda: app.find_by_name("tag 00000", harness.ROLE.TEXT, root=window) is None, 60, 0.1,
               "the list narrowed")
    rename_in_place(app, desktop, window, "tag 09999", "last", timeout=60)
    wait_until(lambda: saved_tags(app)[0][9999] == "last", 60, 0.2, "the rename saved")
    assert saved_tags(app)[0][:2] == ["tag 00000", "tag 00001"] and saved_tags(app)[0][10000] == long
    app.key("Escape")
    gone(app, "Manage Tags", 60)

    # The image's own dialog opens too, with its first rows and a count of the others.
    click(desktop, cells[SPECS[0][0]].center)
    app.key("ctrl+t")
    window = dialog(app, "Tags of 1 Image", 60)
    app.wait_for_object("Remove “tag 00000”", harness.ROLE.PUSH_BUTTON, root=window, timeout=60)
    assert app.find_by_name("and 9801 more tags", harness.ROLE.LABEL, root=window) or app.find_by_name(
        "and 9,801 more tags", harness.ROLE.LABEL, root=window)
