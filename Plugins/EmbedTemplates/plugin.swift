import Foundation
import PackagePlugin

/// Compiles `templates/*.mustache` into the target as string literals, so the report templates
/// travel inside the binary: `tally report` works from any directory and after the binary is
/// copied elsewhere. The top-level `templates/` folder stays the one place to edit them.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The server's pages live apart, so the report templates' list stays the reports'.
        let folder = target.name == "TallyServer" ? "templates/serve" : "templates"
        let directory = context.package.directoryURL.appending(path: folder)
        let templates = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "mustache" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(templates.count) report templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [output.path] + templates.map(\.path),
                inputFiles: templates,
                outputFiles: [output]
            )
        ]
    }
}
