import Foundation
import PackagePlugin

/// Compiles `data/po/*.po` with msgfmt at build time, so a program run from the source tree
/// (`swift run`) speaks the user's language too; Meson compiles the installed catalogs itself.
/// The target gets the compiled catalogs' folder as `SourceTreeCatalogs.directory`.
@main
struct CompileCatalogs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let poDirectory = context.package.directoryURL.appending(path: "data/po")
        let linguas = poDirectory.appending(path: "LINGUAS")
        let languages = try String(contentsOf: linguas, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let catalogs = context.pluginWorkDirectoryURL.appending(path: "locale")
        let constant = context.pluginWorkDirectoryURL.appending(path: "SourceTreeCatalogs.swift")
        // msgfmt from PATH (Debian's gettext). --check: a catalog with a wrong header or plural formula fails the
        // build.
        var script = languages.map { language in
            let folder = catalogs.appending(path: "\(language)/LC_MESSAGES")
            return
                "mkdir -p '\(folder.path)' && msgfmt --check -o '\(folder.path)/image-gallery.mo' '\(poDirectory.path)/\(language).po'"
        }
        script.append(
            """
            printf '/// Catalogs compiled from data/po when the package was built.\\nenum SourceTreeCatalogs {\\n    static let directory = "%s"\\n}\\n' '\(catalogs.path)' > '\(constant.path)'
            """)
        return [
            .buildCommand(
                displayName: "Compiling translations (\(languages.joined(separator: ", ")))",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-e", "-c", script.joined(separator: " && ")],
                inputFiles: [linguas] + languages.map { poDirectory.appending(path: "\($0).po") },
                outputFiles: [constant]
            )
        ]
    }
}
