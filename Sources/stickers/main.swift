import StickerCLI

ProcessStart.prepare()
StickersCommand.main()
