"""The app as a French or a Russian GNOME user sees it: launched with LANG and LANGUAGE set, every word read
over AT-SPI is theirs: the window title, the empty state, the trash zone, a toast with a plural, the galleries
sidebar, an error cell's reason (with numbers written as their locale writes them), the shortcuts window and
the About window."""
import struct
import zlib

import pytest

import harness

LANGUAGES = {
    "fr": dict(
        env={"LANG": "fr_FR.UTF-8", "LC_ALL": "fr_FR.UTF-8", "LANGUAGE": "fr"},
        app_name="Galerie d’images", gallery_name="Galerie",
        row="Chats, 4 images", row_after="Chats, 0 image",
        trash="Corbeille", trash_label="Glissez ici pour supprimer",
        toast="4 images mises à la corbeille", undo="Annuler",
        empty="Aucune image pour l’instant",
        error="bomb.png, erreur : image trop grande (30 000 × 30 000)",
        shortcuts=["Déplacer le focus", "Mettre les images sélectionnées à la corbeille",
                   "Coller une image ou une adresse d’image"],
        menu="Menu principal", about_item="À propos de Galerie d’images",
        about_title="À propos de Galerie d’images", credits="Crédits",
        translators="Équipe de traduction de Galerie d’images",
    ),
    "ru": dict(
        env={"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "LANGUAGE": "ru"},
        app_name="Галерея изображений", gallery_name="Коллекция",
        # Russian has three plural forms: 4 takes the second, 0 the third.
        row="Chats, 4 изображения", row_after="Chats, 0 изображений",
        trash="Корзина", trash_label="Перетащите сюда, чтобы удалить",
        toast="4 изображения перемещены в корзину", undo="Отменить",
        empty="Изображений пока нет",
        error="bomb.png, ошибка: изображение слишком большое (30 000×30 000)",
        shortcuts=["Переместить фокус", "Переместить выделенные в корзину",
                   "Вставить изображение или его адрес"],
        menu="Главное меню", about_item="О приложении",
        about_title="О Галерея изображений", credits="Благодарности",
        translators="Команда перевода Галереи изображений",
    ),
}

COLOURS = [(220, 30, 30), (30, 160, 60), (40, 70, 210)]


def spaces_plain(text):
    """Locales group digits with no-break spaces (U+00A0, U+202F): compared as plain spaces."""
    return (text or "").replace("\u00a0", " ").replace("\u202f", " ")


def png_header_only(width, height):
    """A PNG that declares width×height and holds one empty row: refused from its header as too large."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 4)) + chunk(b"IEND", b""))


def showing(app, name, role=None):
    found = app.find_all(lambda a: a.name == name and a.has_state("SHOWING") and (role is None or a.role_name == role))
    return found[0] if found else None


def wait_showing(app, name, role=None, timeout=20):
    return harness.wait_until(lambda: showing(app, name, role), timeout, 0.2, "%r showing" % name, app.dump_tree)


def click_center(app, accessible):
    x, y, width, height = accessible.extents()
    app.click(x + width // 2, y + height // 2)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_app_speaks_the_users_language(desktop, make_app, http_server, language):
    words = LANGUAGES[language]
    images = [http_server.add_image("colour%d" % i, 240, 180, rgb) for i, rgb in enumerate(COLOURS)]
    bomb = http_server.add_file("/img/bomb.png", png_header_only(30000, 30000), "image/png")
    state = {"version": 1, "galleries": [{"id": "g-cats", "name": "Chats", "images": [
        {"id": "i%d" % i, "url": image.url, "aspectRatio": 240 / 180} for i, image in enumerate(images)]
        + [{"id": "i-bomb", "url": bomb, "aspectRatio": 1}]}]}
    app = make_app(state, env_overrides=words["env"], app_name=words["app_name"], gallery_name=words["gallery_name"])
    app.start()
    app.resize(1000, 720)

    assert app.frame().name == "Chats — " + words["app_name"]
    # Every picture arrives, and the refused one says why in the user's words and numbers.
    cells = app.wait_cells(lambda cs: [spaces_plain(c.name) for c in cs]
                           == ["colour0.png", "colour1.png", "colour2.png", words["error"]],
                           30, what="three pictures, and the refused one's reason")
    shot = app.screenshot()
    for cell, rgb in zip(cells[:3], COLOURS):
        colour, _ = harness.dominant_colour(shot, cell.box)
        assert harness.colour_close(colour, rgb), (cell, colour)

    # The sidebar row counts its images with the language's plural form.
    assert app.wait_for_object(words["row"], timeout=10)
    # The trash zone: its accessible name and its label.
    trash = app.wait_for_object(words["trash"], timeout=10)
    labels = app.find_all(lambda a: a.role == harness.ROLE.LABEL, trash)
    assert [label.name for label in labels] == [words["trash_label"]], app.dump_tree(trash)

    # Every image to the trash: a toast with a plural, with its Undo, then the empty state.
    app.focus()
    click_center(app, app.gallery())
    app.key("ctrl+a")
    app.key("Delete")
    wait_showing(app, words["toast"])
    assert showing(app, words["undo"]), app.dump_tree()
    wait_showing(app, words["empty"])
    app.screenshot()
    assert app.wait_for_object(words["row_after"], timeout=10)

    # The shortcuts window (Ctrl+?): its titles come from the catalog through GtkBuilder.
    app.key("ctrl+question")
    for title in words["shortcuts"]:
        wait_showing(app, title)
    app.screenshot()
    app.key("Escape")
    harness.wait_until(lambda: showing(app, words["shortcuts"][1]) is None, 10, 0.2, "the shortcuts window to close")

    # The About window, from the main menu.
    app.focus()
    click_center(app, app.wait_for_object(words["menu"], timeout=10))
    click_center(app, wait_showing(app, words["about_item"]))
    about = wait_showing(app, words["about_title"], "dialog")
    assert app.find_by_name("0.1.0", contains=True, root=about), app.dump_tree(about)
    app.screenshot()
    # Its credits name the translators, from the catalog.
    click_center(app, wait_showing(app, words["credits"]))
    wait_showing(app, words["translators"])
    app.stop()
