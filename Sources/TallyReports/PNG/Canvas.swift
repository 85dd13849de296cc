import CGD
import Foundation
import TallyCore

/// A rectangle in layout points; a canvas multiplies by its scale to get pixels.
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }

    func inset(by amount: Double) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}

/// An sRGB colour, opaque unless `alpha` says otherwise (0 opaque … 127 transparent, as in libgd).
public struct Color: Hashable, Sendable {
    public var red: Int32
    public var green: Int32
    public var blue: Int32
    public var alpha: Int32

    public init(_ hex: UInt32, alpha: Int32 = 0) {
        red = Int32((hex >> 16) & 0xFF)
        green = Int32((hex >> 8) & 0xFF)
        blue = Int32(hex & 0xFF)
        self.alpha = alpha
    }

    /// The value libgd stores in a true-colour pixel.
    public var gdValue: Int32 { (alpha << 24) + (red << 16) + (green << 8) + blue }
}

enum TextAnchor {
    case leading, trailing, center
}

enum Weight {
    case regular, bold
}

/// One libgd true-colour image, drawn in layout points and freed when the canvas goes away.
final class Canvas {
    let scale: Double
    private let gd: TallyGD
    private let image: gdImagePtr
    private let typesetter: Typesetter

    init(width: Double, height: Double, scale: Int, background: Color) throws(ReportError) {
        self.scale = Double(scale)
        gd = try GD.functions()
        typesetter = Typesetter(scale: Double(scale))
        guard let image = gd.gdImageCreateTrueColor(Int32((width * self.scale).rounded()), Int32((height * self.scale).rounded())) else {
            throw .drawingFailed("cannot allocate a \(Int(width))×\(Int(height)) image")
        }
        self.image = image
        gd.gdImageAlphaBlending(image, 1)
        fill(Rect(x: 0, y: 0, width: width, height: height), background)
    }

    deinit {
        gd.gdImageDestroy(image)
    }

    private func px(_ value: Double) -> Int32 { Int32((value * scale).rounded()) }

    func fill(_ rect: Rect, _ color: Color) {
        guard rect.width > 0, rect.height > 0 else { return }
        filledRectangle(px(rect.x), px(rect.y), px(rect.maxX) - 1, px(rect.maxY) - 1, color)
    }

    /// An opaque colour covers whatever is below it, so it is written without blending: libgd
    /// then fills whole rows instead of blending pixel by pixel.
    private func filledRectangle(_ x1: Int32, _ y1: Int32, _ x2: Int32, _ y2: Int32, _ color: Color) {
        guard color.alpha == 0 else { return gd.gdImageFilledRectangle(image, x1, y1, x2, y2, color.gdValue) }
        gd.gdImageAlphaBlending(image, 0)
        gd.gdImageFilledRectangle(image, x1, y1, x2, y2, color.gdValue)
        gd.gdImageAlphaBlending(image, 1)
    }

    /// A filled rectangle with rounded corners, for bars and cards, drawn row by row with a
    /// partly transparent pixel at each curved edge so the corners look smooth.
    func fillRounded(_ rect: Rect, radius: Double, _ color: Color) {
        let left = rect.x * scale
        let right = rect.maxX * scale
        let top = px(rect.y)
        let bottom = px(rect.maxY)
        let r = min(radius, rect.height / 2, rect.width / 2) * scale
        guard r >= 1, right - left >= 2 else { return fill(rect, color) }
        for row in top..<bottom {
            let center = Double(row) + 0.5
            let dy = max(0, Double(top) + r - center, center - (Double(bottom) - r))
            let inset = dy > 0 ? r - (max(0, r * r - dy * dy)).squareRoot() : 0
            let start = left + inset
            let end = right - inset
            let firstFull = Int32(start.rounded(.up))
            let lastFull = Int32(end.rounded(.down)) - 1
            if firstFull <= lastFull { filledRectangle(firstFull, row, lastFull, row, color) }
            for (edge, coverage) in [(firstFull - 1, Double(firstFull) - start), (lastFull + 1, end - Double(lastFull + 1))] where coverage > 0.02 {
                var partial = color
                partial.alpha = Int32((127 * (1 - min(coverage, 1))).rounded())
                gd.gdImageSetPixel(image, edge, row, partial.gdValue)
            }
        }
    }

    func line(from start: (Double, Double), to end: (Double, Double), _ color: Color, width: Double = 1) {
        gd.gdImageSetThickness(image, max(1, px(width)))
        gd.gdImageLine(image, px(start.0), px(start.1), px(end.0), px(end.1), color.gdValue)
        gd.gdImageSetThickness(image, 1)
    }

    func dashedLine(from start: (Double, Double), to end: (Double, Double), _ color: Color, width: Double = 1, dash: Double = 6) {
        let dx = end.0 - start.0
        let dy = end.1 - start.1
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        var travelled = 0.0
        while travelled < length {
            let stop = min(travelled + dash, length)
            line(
                from: (start.0 + dx * travelled / length, start.1 + dy * travelled / length),
                to: (start.0 + dx * stop / length, start.1 + dy * stop / length), color, width: width
            )
            travelled += 2 * dash
        }
    }

    func polyline(_ points: [(Double, Double)], _ color: Color, width: Double) {
        for (start, end) in zip(points, points.dropFirst()) { line(from: start, to: end, color, width: width) }
    }

    func fillPolygon(_ points: [(Double, Double)], _ color: Color) {
        guard points.count >= 3 else { return }
        var gdPoints = points.map { gdPoint(x: px($0.0), y: px($0.1)) }
        gd.gdImageFilledPolygon(image, &gdPoints, Int32(gdPoints.count), color.gdValue)
    }

    // MARK: - Text

    /// Draws `text` with its baseline at `y`; returns its width in points.
    @discardableResult
    func text(_ text: String, x: Double, y: Double, size: Double, _ color: Color, weight: Weight = .regular, anchor: TextAnchor = .leading) -> Double {
        let runs = typesetter.runs(of: text, weight: weight)
        // Text that starts at `x` is drawn at once and measured by the box libgd draws it in:
        // measuring first loads and hints every glyph twice.
        let widths = anchor == .leading ? nil : runs.map { typesetter.measure($0.text, face: $0.face, size: size) }
        let total = widths?.reduce(0, +) ?? 0
        var pen: Double
        switch anchor {
        case .leading: pen = x
        case .trailing: pen = x - total
        case .center: pen = x - total / 2
        }
        var drawn = 0.0
        for (index, run) in runs.enumerated() {
            var box = [Int32](repeating: 0, count: 8)
            var extra = Typesetter.extra(for: run.face)
            let failure = gd.gdImageStringFTEx(image, &box, color.gdValue, run.face.name, size * scale, 0, px(pen), px(y), run.text, &extra)
            let width = widths?[index] ?? (failure == nil ? Double(box[2] - box[0]) / scale : 0)
            pen += width
            drawn += width
        }
        return drawn
    }

    // MARK: - Output

    func pngData() throws(ReportError) -> Data {
        var size: Int32 = 0
        // zlib's default level: level 9 spends much of a dashboard's time for a barely smaller file.
        guard let bytes = gd.gdImagePngPtrEx(image, &size, 6), size > 0 else {
            throw .encodingFailed("cannot encode the chart as PNG")
        }
        defer { gd.gdFree(bytes) }
        return Data(bytes: bytes, count: Int(size))
    }
}

/// Measures and splits text the way a canvas draws it, without needing an image.
struct Typesetter {
    /// Layout always measures at scale 1, so a `--scale 2` image holds exactly the same strings.
    static let layout = Typesetter(scale: 1)

    let scale: Double
    private let fonts = FontSet.shared
    private let gd = GD.available

    init(scale: Double) {
        self.scale = scale
    }

    func width(of text: String, size: Double, weight: Weight = .regular) -> Double {
        runs(of: text, weight: weight).reduce(0) { $0 + measure($1.text, face: $1.face, size: size) }
    }

    /// `text`, or its longest prefix that fits `maximumWidth` followed by `…`.
    func fitted(_ text: String, maximumWidth: Double, size: Double, weight: Weight = .regular) -> String {
        guard width(of: text, size: size, weight: weight) > maximumWidth else { return text }
        let characters = Array(text)
        var low = 0
        var high = characters.count
        while low < high {
            let middle = (low + high + 1) / 2
            let candidate = String(characters[..<middle]).trimmingCharacters(in: .whitespaces) + "…"
            if width(of: candidate, size: size, weight: weight) <= maximumWidth { low = middle } else { high = middle - 1 }
        }
        return String(characters[..<low]).trimmingCharacters(in: .whitespaces) + "…"
    }

    struct Run {
        var text: String
        var face: FontFace
    }

    /// Splits text where the script changes between DejaVu and the CJK face, so mixed names
    /// such as "Tokyo 東京" draw every glyph.
    func runs(of text: String, weight: Weight) -> [Run] {
        let latin = weight == .bold ? fonts.bold : fonts.regular
        var runs: [Run] = []
        var currentIsCJK: Bool?
        for character in ArabicShaping.visual(text) {
            let isCJK = character.unicodeScalars.first.map(Typesetter.needsCJKFace) ?? false
            if isCJK == currentIsCJK, !runs.isEmpty {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append(Run(text: String(character), face: isCJK ? fonts.cjk : latin))
                currentIsCJK = isCJK
            }
        }
        return runs
    }

    private static func needsCJKFace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x303F, 0x3040...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F,
            0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFFEF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    static func extra(for face: FontFace) -> gdFTStringExtra {
        var extra = gdFTStringExtra()
        // 72 dpi makes a point one layout unit, so sizes mean the same as coordinates.
        extra.flags = face.flags | Int32(gdFTEX_RESOLUTION)
        extra.hdpi = 72
        extra.vdpi = 72
        return extra
    }

    func measure(_ text: String, face: FontFace, size: Double) -> Double {
        var box = [Int32](repeating: 0, count: 8)
        var extra = Typesetter.extra(for: face)
        guard let gd, gd.gdImageStringFTEx(nil, &box, 0, face.name, size * scale, 0, 0, 0, text, &extra) == nil else { return 0 }
        return Double(box[2] - box[0]) / scale
    }
}
