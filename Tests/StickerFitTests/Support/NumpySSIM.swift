import Foundation
import TestSupport
import Testing

/// SSIM computed by numpy from the definition (uniform 8 x 8 windows stepped by 4, every
/// channel, Wang et al.'s constants), as the oracle for `StructuralSimilarity`: no code shared.
enum NumpySSIM {
    /// The mean over `pairs` of each pair's mean SSIM (RGBA8 frames of `width` x `height`).
    static func mean(_ pairs: [([UInt8], [UInt8])], width: Int, height: Int) throws -> Double {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(pairs.flatMap(\.0)).write(to: folder.appendingPathComponent("a.raw"))
        try Data(pairs.flatMap(\.1)).write(to: folder.appendingPathComponent("b.raw"))
        let script = """
            import sys, numpy as np
            folder, w, h, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            a_all = np.fromfile(folder + "/a.raw", dtype=np.uint8).reshape(n, h, w, 4).astype(np.float64)
            b_all = np.fromfile(folder + "/b.raw", dtype=np.uint8).reshape(n, h, w, 4).astype(np.float64)
            c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
            means = []
            for a, b in zip(a_all, b_all):
                values = []
                for top in range(0, h - 8 + 1, 4):
                    for left in range(0, w - 8 + 1, 4):
                        x, y = a[top:top + 8, left:left + 8], b[top:top + 8, left:left + 8]
                        for c in range(4):
                            p, q = x[:, :, c], y[:, :, c]
                            mp, mq = p.mean(), q.mean()
                            vp, vq = (p * p).mean() - mp * mp, (q * q).mean() - mq * mq
                            cov = (p * q).mean() - mp * mq
                            values.append((2 * mp * mq + c1) * (2 * cov + c2) / ((mp * mp + mq * mq + c1) * (vp + vq + c2)))
                means.append(np.mean(values))
            print(repr(float(np.mean(means))))
            """
        let printed = folder.appendingPathComponent("numpy.txt")
        try #require(
            try TestProcess.run(
                ["python3", "-c", script, folder.path, "\(width)", "\(height)", "\(pairs.count)"],
                standardOutput: printed) == 0)
        let text = try String(contentsOf: printed, encoding: .utf8)
        return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
