import Testing

@testable import GalleryCore

@Suite struct ActionTableTests {
    private let lines = ActionTable.shortcutsWindow.flatMap(\.shortcuts)

    @Test func theShortcutsWindowListsEveryActionThatHasAnAccelerator() {
        let drawn = Set(lines.filter { $0.action != nil }.flatMap(\.keys))
        for entry in ActionTable.entries {
            guard let name = entry.name, let first = entry.accelerators.first else { continue }
            #expect(drawn.contains(first), "\(name) has \(first), which the shortcuts window does not show")
        }
    }

    @Test func theShortcutsWindowListsNothingWithoutAnAcceleratorUnlessAViewHandlesIt() {
        let accelerators = Set(ActionTable.entries.flatMap(\.accelerators))
        for line in lines {
            // A view's own keys are marked as such: the only lines that stand for no action.
            guard let action = line.action else { continue }
            let entry = ActionTable.entries.first { $0.name == action }
            #expect(entry?.accelerators.isEmpty == false, "“\(line.title)” shows \(action), which has no key")
            for key in line.keys {
                #expect(accelerators.contains(key), "“\(line.title)” draws \(key), which no action has")
            }
        }
        for entry in ActionTable.entries where entry.accelerators.isEmpty && !entry.isHandledByView {
            #expect(entry.shortcuts.isEmpty, "\(entry.name ?? "") has no key but a line in the shortcuts window")
        }
    }

    @Test func aKeyAViewHandlesIsNoAccelerator() {
        // GTK would take such a key before the view sees it.
        let accelerators = Set(ActionTable.entries.flatMap(\.accelerators))
        for line in lines where line.action == nil {
            #expect(accelerators.isDisjoint(with: line.keys), "“\(line.title)” is also an accelerator")
        }
    }

    @Test func eachActionIsNamedOnceForTheApplicationOrAWindow() {
        let names = ActionTable.entries.compactMap(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.hasPrefix("app.") || $0.hasPrefix("win.") })
        #expect(
            ActionTable.actionNames(prefix: "app.").count + ActionTable.actionNames(prefix: "win.").count == names.count
        )
        #expect(ActionTable.actionNames(prefix: "app.").contains("quit"))
    }

    @Test func everySectionHasLinesAndEachLineATitleAndKeys() {
        for (section, shortcuts) in ActionTable.shortcutsWindow {
            #expect(!shortcuts.isEmpty, "\(section.title) is empty")
            #expect(shortcuts.allSatisfy { !$0.title.isEmpty && !$0.keys.isEmpty && $0.section == section })
        }
    }
}
