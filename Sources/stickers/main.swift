import StickerCLI

StickersCommand.main()
