"""The app's dialogs, read and answered over AT-SPI: `add_images_question` and `press`."""
from .waiting import wait_until


def add_images_question(app, count, timeout=60):
    """The dialog that asks before adding `count` images (the number grouped as the locale groups it: not in C)."""
    wanted = "Add %d images?" % count

    def found():
        alerts = app.find_all(lambda a: a.role_name == "alert")
        return next((a for a in alerts if (a.name or "").replace(",", "").replace("\u202f", "") == wanted), None)

    return wait_until(found, timeout, 0.25, "the dialog %r" % wanted, app.dump_tree)


def press(app, node, button):
    """Presses a button of the dialog `node` by its accessible action."""
    found = [b for b in app.find_all(lambda a: a.role_name == "push button" and a.name == button, node)]
    assert found, "no %r button in %s" % (button, app.dump_tree())
    found[0].do_action(0)
