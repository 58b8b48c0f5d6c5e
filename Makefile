# StickerKit: `make demo` sets everything up and runs the main job on the sample pack;
# `make test` runs the test suite. Both install what is missing (Debian packages need root).

SWIFT ?= swift
# Every target drives SwiftPM, which uses every core itself: one target at a time.
.NOTPARALLEL:
APT_PACKAGES := zlib1g-dev libpng-dev libgif-dev libjpeg62-turbo-dev libdeflate-dev libwebp-dev webp pkg-config python3-pip python3-venv \
                libvpx-dev librlottie-dev libfreetype6 libharfbuzz0b libfribidi0 fonts-inter fonts-dejavu-core fonts-noto-color-emoji \
                ffmpeg gifsicle imagemagick apngasm tmux chafa timg chromium tidy man-db \
                xvfb xterm kitty konsole x11-apps x11-utils valgrind
SAMPLE_PACK := corpus/sample-pack
SAMPLE_CATALOG := corpus/Sample.xcstickers
DEMO_OUT := .build-demo
# `make release-build TARGET_CPU=native` (or a CPU name, such as znver3 or haswell) builds the
# binary for that CPU's instruction set, as peers built with -march=native are, into
# .build-cpu-$(TARGET_CPU)/release/stickers; the default build runs on any x86-64 (SSE2).
TARGET_CPU ?=
RELEASE_CPU_OPTIONS := $(if $(TARGET_CPU),--scratch-path .build-cpu-$(TARGET_CPU) -Xswiftc -target-cpu -Xswiftc $(TARGET_CPU))

.PHONY: demo test instruction-guard instruction-counts deps system-deps python-deps peer-deps install uninstall man man-tool api-docs lint format build release-build corpus docs performance bench-corpus bench clean

demo: deps release-build
	@rm -rf $(DEMO_OUT) && mkdir -p $(DEMO_OUT)
	@echo "== stickers validate $(SAMPLE_PACK)"; .build/release/stickers validate $(SAMPLE_PACK)
	@echo "== stickers validate $(SAMPLE_CATALOG)"; .build/release/stickers validate $(SAMPLE_CATALOG)
	@echo "== stickers render (compact, expanded, animated expanded)"
	@.build/release/stickers render $(SAMPLE_PACK) --style compact -o $(DEMO_OUT)/compact.png
	@.build/release/stickers render $(SAMPLE_PACK) --style expanded -o $(DEMO_OUT)/expanded.png
	@.build/release/stickers render $(SAMPLE_PACK) --style expanded --animate -o $(DEMO_OUT)/expanded.apng
	@.build/release/stickers render $(SAMPLE_CATALOG) --style compact --animate -o $(DEMO_OUT)/catalog-compact.apng
	@.build/release/stickers sheet $(SAMPLE_PACK) -o $(DEMO_OUT)/backgrounds.png
	@echo "== stickers fit: a folder of wrong stickers (too small, too big, not square, a 22 MB animation, WebP)"
	@python3 corpus/make_wrong_stickers.py $(DEMO_OUT)/wrong --heavy && rm -f $(DEMO_OUT)/wrong/broken.webp
	@.build/release/stickers validate $(DEMO_OUT)/wrong > $(DEMO_OUT)/wrong-validate.txt || \
	  echo "   validate finds $$(grep -c '^error' $(DEMO_OUT)/wrong-validate.txt) error(s) (in $(DEMO_OUT)/wrong-validate.txt); fit fixes them:"
	@.build/release/stickers fit $(DEMO_OUT)/wrong -o $(DEMO_OUT)/Fixed.xcstickers
	@.build/release/stickers validate $(DEMO_OUT)/Fixed.xcstickers
	@.build/release/stickers render $(DEMO_OUT)/Fixed.xcstickers --style expanded -o $(DEMO_OUT)/fixed-expanded.png
	@echo "== stickers xcode: the sample pack as a Sticker Pack App project, validated with the App Store's rules"
	@.build/release/stickers xcode $(SAMPLE_PACK) -o $(DEMO_OUT)/StickerApp --name "Sample Stickers" --bundle-id com.example.samplestickers --progress none | tail -n 3
	@.build/release/stickers validate $(DEMO_OUT)/StickerApp | tail -n 1
	@echo "== Telegram's formats: a Lottie .tgs and a VP9 .webm with alpha, read and fitted"
	@python3 corpus/make_telegram_stickers.py $(DEMO_OUT)/telegram
	@.build/release/stickers info $(DEMO_OUT)/telegram/spinner.tgs | sed -n '2,10p'
	@.build/release/stickers info $(DEMO_OUT)/telegram/bubble.webm | sed -n '2,11p'
	@.build/release/stickers preview $(DEMO_OUT)/telegram/spinner.tgs --frame 30 --width 40 --height 20
	@echo "== stickers preview --detect: the graphics this terminal shows (kitty, iterm2, sixel; blocks when it is not a terminal)"
	@.build/release/stickers preview --detect $(SAMPLE_PACK)
	@.build/release/stickers fit $(DEMO_OUT)/telegram -o $(DEMO_OUT)/Telegram.xcstickers
	@.build/release/stickers validate $(DEMO_OUT)/Telegram.xcstickers
	@echo "== stickers transcript: the sample pack in a conversation, light and dark"
	@.build/release/stickers transcript corpus/conversation.txt -o $(DEMO_OUT)/conversation-light.png
	@.build/release/stickers transcript corpus/conversation.txt -o $(DEMO_OUT)/conversation-dark.png --appearance dark
	@.build/release/stickers transcript $(SAMPLE_PACK) -o $(DEMO_OUT)/conversation.apng --duration 2s --scale 2
	@echo "== stickers review: the whole verdict on the sample pack as one page"
	@.build/release/stickers review $(SAMPLE_PACK) -o $(DEMO_OUT)/review --progress none
	@echo "   open $(DEMO_OUT)/review/index.html in a browser"
	@echo "== snapshots are in $(DEMO_OUT)/:"; ls -1 $(DEMO_OUT)

# The suite runs optimized (with -enable-testing for the @testable imports) in its own build
# folder: the sweeps over every prefix of the corpus and the conformance suites run several
# times faster than in a debug build, and the release build used by demo and bench is untouched.
TEST_FLAGS := -c release -Xswiftc -enable-testing --scratch-path .build-test
TEST_BINARY := .build-test/release/stickers

# The third-party conformance suites are not in the repository: tests that need a missing one
# are skipped, and the last line says which and how to get them (scripts/get-conformance.sh).
# swift-testing runs at most as many test cases at once as there are cores: a test's time limit
# counts from when it starts, and with an unbounded width every case starts at once and waits.
test: deps peer-deps man-tool
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$$(nproc) $(SWIFT) test --skip-build $(TEST_FLAGS) --parallel --num-workers 2
	@scripts/conformance-status.sh
	@python3 scripts/instruction-guard.py --stickers $(TEST_BINARY)

# The slowdown guard alone: instructions per decode under cachegrind against
# Benchmarks/Thresholds/instructions.json (`make instruction-counts` records them anew).
instruction-guard:
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	python3 scripts/instruction-guard.py --stickers $(TEST_BINARY)

instruction-counts:
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	python3 scripts/instruction-guard.py --stickers $(TEST_BINARY) --update

deps: system-deps python-deps

# Installs the Debian packages that are missing (apt-get as root, else sudo).
system-deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# Pillow is the independent reference decoder in the differential tests and draws the corpus.
python-deps:
	@python3 -c "import PIL, numpy" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check pillow numpy

# The peers the suite runs as programs, each in a virtualenv of its own under .build-peers/
# (git-ignored): sticker-convert for `bench --fit-peer`, the version its figures were taken with;
# ThorVG (thorvg-python), the second Lottie engine the decoder's frames are checked against; and
# pbxproj with openstep-parser, the readers `stickers xcode`'s projects are checked with.
THORVG_VENV := .build-peers/thorvg
XCODE_VENV := .build-peers/xcode
peer-deps:
	@STICKER_CONVERT_SPEC="$${STICKER_CONVERT_SPEC:-sticker-convert==2.21.0.2}" scripts/setup-sticker-convert.sh >/dev/null
	@$(THORVG_VENV)/bin/python -c "import thorvg_python, numpy" 2>/dev/null || { python3 -m venv $(THORVG_VENV) && \
	  $(THORVG_VENV)/bin/pip install -q --disable-pip-version-check thorvg-python==1.1.3 numpy; }
	@$(XCODE_VENV)/bin/python -c "import pbxproj, openstep_parser" 2>/dev/null || { python3 -m venv $(XCODE_VENV) && \
	  $(XCODE_VENV)/bin/pip install -q --disable-pip-version-check pbxproj==4.3.3 openstep-parser==2.0.3; }

build:
	$(SWIFT) build

# The Swift runtime and FoundationEssentials linked in (-static-stdlib), and the C and C++
# libraries too: .build-static-libs/ holds links to their archives only (Debian's, and gcc's
# libstdc++.a, which the Swift runtime needs), and pkg-config files of
# the same names as Debian's that point the linker there first (SwiftPM asks pkg-config for
# each system library's -L), so `-lpng16` and the rest find the archive before the shared
# library. glibc stays shared because rlottie, which reads Lottie stickers, exists in Debian as
# a shared C++ library only: it is loaded with dlopen the first time a Lottie file is read
# (CLottie), so no other command loads it or libstdc++. `-lz -lm -lpthread` again at the end: the
# static libpng and libvpx need them after them. Start-up is in docs/performance.md.
STATIC_C_LIBS := png16 gif jpeg webpdemux webp deflate z vpx
# Each pkg-config name SwiftPM asks for, and the libraries its file names (as Debian's do).
STATIC_PKG_CONFIG := zlib:-lz libdeflate:-ldeflate libpng:-lpng16,-lz,-lm libgif:-lgif libjpeg:-ljpeg \
                     libwebpdemux:-lwebpdemux,-lwebp vpx:-lvpx,-lm,-lpthread
release-build:
	@mkdir -p .build-static-libs/pkgconfig
	@for l in $(STATIC_C_LIBS); do ln -sf /usr/lib/$$(gcc -print-multiarch)/lib$$l.a .build-static-libs/lib$$l.a; done
	@ln -sf $$(dirname $$(gcc -print-libgcc-file-name))/libstdc++.a .build-static-libs/libstdc++.a
	@for entry in $(STATIC_PKG_CONFIG); do name=$${entry%%:*}; libs=$$(echo $${entry#*:} | tr , ' '); \
	  printf 'Name: %s\nDescription: the archive, for the release build\nVersion: 0\nLibs: -L%s %s\nCflags:\n' \
	  $$name "$(CURDIR)/.build-static-libs" "$$libs" > .build-static-libs/pkgconfig/$$name.pc; done
	PKG_CONFIG_PATH="$(CURDIR)/.build-static-libs/pkgconfig" $(SWIFT) build -c release --product stickers $(RELEASE_CPU_OPTIONS) -Xswiftc -static-stdlib \
	  -Xswiftc -Xclang-linker -Xswiftc -static-libgcc -Xlinker -lz -Xlinker -lm -Xlinker -lpthread

corpus:
	python3 corpus/make_sample_pack.py

# The generated parts of the docs: docs/cli.md's blocks from the commands' own help (the test suite
# fails when they differ) and the README's picture.
docs: release-build api-docs
	scripts/make-cli-docs.py
	scripts/make-readme-image.sh

# swift format's own lint with the checked-in .swift-format: the formatter leaves nothing to fix.
# `make format` rewrites the tree in place.
lint:
	$(SWIFT) format lint --strict --recursive --parallel Package.swift Sources Tests Fuzz

format:
	$(SWIFT) format format --in-place --recursive --parallel Package.swift Sources Tests Fuzz

# The API reference of the libraries a user imports first, DocC archives in .build-docs/, any
# DocC warning an error (swift-docc-plugin; the catalogs are Sources/*/*.docc).
DOCC_TARGETS := AnimationCodec StickerPack
api-docs:
	@for target in $(DOCC_TARGETS); do \
	  $(SWIFT) package --scratch-path .build-docs/scratch --allow-writing-to-directory .build-docs \
	    generate-documentation --target $$target --output-path .build-docs/$$target.doccarchive \
	    --warnings-as-errors --disable-indexing || exit 1; \
	done

# The benchmark corpus (git-ignored) and a benchmark run over it.
bench-corpus:
	[ -d corpus-bench ] || scripts/make-bench-corpus.sh

bench: deps release-build bench-corpus
	.build/release/stickers bench corpus-bench --repeat 5

# Every peer comparison in one go, written into docs/performance.md's tables (several minutes).
performance: deps release-build bench-corpus
	scripts/setup-sticker-convert.sh
	scripts/performance.py --fit-peer

# Every libFuzzer target of scripts/fuzz.sh for a minute, two at a time, as CI runs them
# (.ci/run, after the tests): about 6 minutes on 2 cores, builds included. Fails on anything a target finds.
.PHONY: fuzz-ci
fuzz-ci: deps
	scripts/fuzz-ci.sh

# Installed where chafa and ripgrep put theirs: the program in bin, a man page a command in
# share/man/man1, completions for bash, zsh and fish. PREFIX and DESTDIR as usual.
PREFIX ?= /usr/local
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
MAN_OUT := .build-man
STICKERS ?= .build/release/stickers

# `make install STICKERS=path` (or STICKERS in the environment) installs that build instead of
# making the release build; `make release-build man` then `sudo make install STICKERS=...`
# installs as root without building as root.
install: $(if $(filter command line environment,$(origin STICKERS)),,release-build) man
	install -d $(BIN_DIR) $(MAN_DIR) $(BASH_DIR) $(ZSH_DIR) $(FISH_DIR)
	install -m 755 $(STICKERS) $(BIN_DIR)/stickers
	install -m 644 $(MAN_OUT)/*.1 $(MAN_DIR)/
	$(STICKERS) --generate-completion-script bash > $(BASH_DIR)/stickers
	$(STICKERS) --generate-completion-script zsh > $(ZSH_DIR)/_stickers
	$(STICKERS) --generate-completion-script fish > $(FISH_DIR)/stickers.fish

uninstall:
	rm -f $(BIN_DIR)/stickers $(MAN_DIR)/stickers.1 $(MAN_DIR)/stickers.*.1 \
	  $(BASH_DIR)/stickers $(ZSH_DIR)/_stickers $(FISH_DIR)/stickers.fish

# A man page a command (stickers.1, stickers.fit.1, ...), written by swift-argument-parser's
# generate-manual from the commands' own help, built once in its own folder, with each
# option's default added as --help prints it (scripts/man-defaults.py).
MANUAL_TOOL := .build-tools/release/generate-manual

man-tool:
	$(SWIFT) build -c release --product generate-manual --scratch-path .build-tools

$(MANUAL_TOOL):
	$(SWIFT) build -c release --product generate-manual --scratch-path .build-tools

# Written again only when the program is newer than the pages, and the tool built only when
# it is missing: `sudo make install STICKERS=...` after `make release-build man` builds nothing.
man: $(MAN_OUT)/stickers.1

$(STICKERS):
	@echo "no $(STICKERS): make release-build first, or name a build with STICKERS=" >&2; exit 1

$(MAN_OUT)/stickers.1: $(STICKERS) scripts/man-defaults.py | $(MANUAL_TOOL)
	rm -rf $(MAN_OUT) && mkdir -p $(MAN_OUT)
	$(MANUAL_TOOL) $(STICKERS) --multi-page --output-directory $(MAN_OUT)
	python3 scripts/man-defaults.py $(STICKERS) $(MAN_OUT) || { rm -rf $(MAN_OUT); exit 1; }

clean:
	rm -rf .build .build-test .build-tools .build-docs $(MAN_OUT) $(DEMO_OUT) .conformance
