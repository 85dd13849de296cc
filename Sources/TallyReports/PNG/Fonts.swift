import CGD
import Foundation

/// A typeface as libgd takes it: a fontconfig pattern, or a file path when fontconfig cannot help.
struct FontFace: Sendable {
    let name: String
    let flags: Int32
}

/// The faces the charts use, resolved once per process.
///
/// DejaVu Sans draws Latin, Cyrillic, Greek and Arabic; it has no CJK glyphs, so text in those
/// scripts is drawn with a CJK-capable face (Debian `fonts-wqy-microhei` or `fonts-noto-cjk`).
struct FontSet: Sendable {
    let regular: FontFace
    let bold: FontFace
    let cjk: FontFace

    static let shared: FontSet = {
        // The font cache is global in libgd and its first set-up is not thread-safe.
        if let gd = GD.available {
            _ = gd.gdFontCacheSetup()
            _ = gd.gdFTUseFontConfig(1)
        }
        let regular = resolve(pattern: "DejaVu Sans", fallback: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let bold = resolve(pattern: "DejaVu Sans:bold", fallback: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
        let cjk = resolve(
            pattern: "WenQuanYi Micro Hei,Noto Sans CJK SC,Droid Sans Fallback:lang=zh-cn",
            fallback: "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", otherwise: regular
        )
        return FontSet(regular: regular, bold: bold, cjk: cjk)
    }()

    private static func resolve(pattern: String, fallback path: String, otherwise: FontFace? = nil) -> FontFace {
        let byPattern = FontFace(name: pattern, flags: Int32(gdFTEX_FONTCONFIG))
        if works(byPattern) { return byPattern }
        let byPath = FontFace(name: path, flags: Int32(gdFTEX_FONTPATHNAME))
        if FileManager.default.isReadableFile(atPath: path), works(byPath) { return byPath }
        return otherwise ?? byPath
    }

    private static func works(_ face: FontFace) -> Bool {
        var box = [Int32](repeating: 0, count: 8)
        var extra = gdFTStringExtra()
        extra.flags = face.flags
        guard let gd = GD.available else { return false }
        return gd.gdImageStringFTEx(nil, &box, 0, face.name, 12, 0, 0, 0, "A", &extra) == nil
    }
}
