/// Lottie documents written by hand for the tests, their geometry stated so that pixels can be
/// worked out from it.
public enum LottieDocuments {
    /// A 64 x 64 document, 30 frames at 30 fps: a 16 x 16 red square whose centre moves
    /// linearly from (16, 32) at frame 0 to (48, 32) at frame 30 (the out point).
    public static let movingSquare = """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"nm":"square","ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"nm":"square","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},
                "p":{"a":1,"k":[{"t":0,"s":[16,32,0],"e":[48,32,0],"i":{"x":1,"y":1},"o":{"x":0,"y":0}},{"t":30}]}},
          "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[16,16]},"r":{"a":0,"k":0}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    /// ``movingSquare`` from an in point before frame 0: the document runs from frame -10 to
    /// frame 30 (40 frames), its square's layer from frame 0, so frames -10 to -1 are clear and
    /// from frame 0 the square moves as in ``movingSquare``. (Bodymovin writes such an in point
    /// when a composition's work area starts before zero.)
    public static let earlyInPoint = """
        {"v":"5.5.2","fr":30,"ip":-10,"op":30,"w":64,"h":64,"nm":"square","ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"nm":"square","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},
                "p":{"a":1,"k":[{"t":0,"s":[16,32,0],"e":[48,32,0],"i":{"x":1,"y":1},"o":{"x":0,"y":0}},{"t":30}]}},
          "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[16,16]},"r":{"a":0,"k":0}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    /// ``movingSquare`` scaled 64 times and over 3 s at 60 fps: a 4096 x 4096 document, 180
    /// frames, a 1024 px red square whose centre moves linearly from (1024, 2048) at frame 0
    /// to (3072, 2048) at frame 180 (the out point). Its frames at its own size take
    /// 12,079,595,520 bytes.
    public static let largeMovingSquare = """
        {"v":"5.5.2","fr":60,"ip":0,"op":180,"w":4096,"h":4096,"layers":[{"ddd":0,"ind":1,"ty":4,"sr":1,
         "ip":0,"op":180,"st":0,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},
         "s":{"a":0,"k":[100,100,100]},"p":{"a":1,"k":[{"t":0,"s":[1024,2048,0],"e":[3072,2048,0],
         "i":{"x":1,"y":1},"o":{"x":0,"y":0}},{"t":180}]}},
         "shapes":[{"ty":"rc","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[1024,1024]},"r":{"a":0,"k":0}},
                   {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
        """

    /// A 64 x 64 document, 30 frames at 30 fps, whose only layer is Bodymovin's text ("Hi"),
    /// which rlottie does not draw: every frame is clear.
    public static let textOnly = """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"assets":[],
         "fonts":{"list":[{"fName":"Arial","fFamily":"Arial","fStyle":"Regular","ascent":75}]},
         "layers":[{"ddd":0,"ind":1,"ty":5,"nm":"t","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[10,32,0]}},
          "t":{"d":{"k":[{"s":{"s":20,"f":"Arial","t":"Hi","j":0,"tr":0,"lh":24,"ls":0,"fc":[0,0,0]},"t":0}]},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}]}
        """

    /// A 64 x 64 document, 30 frames at 30 fps, with a track matte (Bodymovin's `td` and `tt`):
    /// a white 32 x 32 square centred at (32, 32), the matte, over a blue band the whole width,
    /// rows 20 to 43 (24 high), matted by it. With an alpha matte (`tt` 1) the band shows only
    /// inside the square: blue at x 16-47, y 20-43, clear elsewhere. `tt` 2 (inverted) shows
    /// the band outside the square: x 0-15 and 48-63, y 20-43. The matte itself is never shown.
    public static func trackMatte(matteType: Int = 1) -> String {
        """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"nm":"matte","ddd":0,"assets":[],
         "layers":[\(trackMatteLayers(matteType: matteType))]}
        """
    }

    /// ``trackMatte(matteType:)``'s pair of layers inside a precomposition (an asset), which the
    /// one top-level layer shows at the document's size: the same pictures.
    public static let trackMatteInPrecomposition = """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"nm":"matte","ddd":0,
         "assets":[{"id":"pair","layers":[\(trackMatteLayers(matteType: 1))]}],
         "layers":[{"ddd":0,"ind":1,"ty":0,"refId":"pair","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,"w":64,"h":64,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[0,0,0]}}}]}
        """

    /// The matte and the matted layer of ``trackMatte(matteType:)``.
    static func trackMatteLayers(matteType: Int) -> String {
        """
        {"ddd":0,"ind":1,"ty":4,"nm":"matte","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,"td":1,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[32,32,0]}},
          "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[32,32]},"r":{"a":0,"k":0}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[1,1,1,1]},"o":{"a":0,"k":100},"r":1}]},
         {"ddd":0,"ind":2,"ty":4,"nm":"band","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,"tt":\(matteType),
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[32,32,0]}},
          "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[64,24]},"r":{"a":0,"k":0}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"r":1}]}
        """
    }

    /// ``trackMatte(matteType:)`` with the band a solid layer (`ty` 1, `#0000ff`, 64 x 24, its
    /// top-left corner at (0, 20)) instead of a shape layer.
    public static let trackMatteOverSolid = """
        {"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"nm":"matte","ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"nm":"matte","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,"td":1,
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[32,32,0]}},
          "shapes":[{"ty":"rc","nm":"r","d":1,"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[32,32]},"r":{"a":0,"k":0}},
                    {"ty":"fl","nm":"f","c":{"a":0,"k":[1,1,1,1]},"o":{"a":0,"k":100},"r":1}]},
         {"ddd":0,"ind":2,"ty":1,"nm":"band","sr":1,"ip":0,"op":30,"st":0,"bm":0,"ao":0,"tt":1,"sw":64,"sh":24,"sc":"#0000ff",
          "ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]},"p":{"a":0,"k":[0,20,0]}}}]}
        """
}
