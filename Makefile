# The appliance's build. `make run` and `make test` are all a fresh Debian machine needs (see README.md).
SWIFT ?= swift
SWIFT_TEST_FLAGS ?= --parallel

.PHONY: all deps build run test test-host test-release powercut arm test-arm test-system deb test-deb image image-raw overlays check-overlays test-image bench mca faults fuzz test-fuzz soak test-soak clean help

all: build

help:
	@echo "make run       build and run the appliance on the simulated board, its console on this terminal"
	@echo "make test      host tests, the command-line tests on the release build, the aarch64 release build,"
	@echo "               then the same tests on aarch64 under qemu, then the kernel rig (test-system)"
	@echo "make test-host host tests only"
	@echo "make test-soak the soak, bounded: 2 simulated hours of use for seeds 1 and 2 (RELIABILITY.md, part 4)"
	@echo "make soak      the soak's full day: SOAK_HOURS=24 SEED=1 (or SEED=1,2,3) on the manual clock, at nice 19"
	@echo "make test-release the command-line tests against the host's release build"
	@echo "make powercut  the long power-cut run: the release appliance SIGKILLed while recording, POWERCUT_RUNS"
	@echo "               per format (default 100; POWERCUT_SEED=N repeats a run); RELIABILITY.md section 2"
	@echo "make arm       cross-build the release binary for aarch64 (Debian trixie)"
	@echo "make test-arm  cross-build the tests and run them under qemu-aarch64-static, then check that"
	@echo "               the aarch64 binary renders byte-identical files to the host's release build"
	@echo "make test-system boot Debian's arm64 kernel under qemu-system-aarch64 and run the aarch64 binary"
	@echo "               against simulated GPIO, I2C and ALSA kernel drivers, then 'appliance run' on a board"
	@echo "               made of them, its console on a virtio serial line driven from the host (image/system/);"
	@echo "               then power cuts: QEMU killed while the appliance records onto ext4 on a virtio disk"
	@echo "               (POWERCUT_SYSTEM_RUNS, default 5; image/system/powercut.sh)"
	@echo "make deb       the arm64 Debian package (.build-deb/); make test-deb checks it (lintian, contents)"
	@echo "               and installs, upgrades, removes and purges it in a trixie arm64 guest"
	@echo "make image     the Raspberry Pi SD-card image: .build-image/appliance-<board>.img.xz and its .bmap"
	@echo "               (BOARD=<name> picks the board in appliance.txt; default waveshare-wm8960; image/rpi/)"
	@echo "make image-raw the same, uncompressed only (.build-image/appliance-<board>.img)"
	@echo "make overlays  compile the device-tree overlays (appliance-BOARD.dtbo) into .build-overlays/"
	@echo "make test-image boot the SD-card image (make image) under qemu-system-aarch64 -M raspi3b to the"
	@echo "               appliance console; check its service, user, groups and mounts (image/rpi/boot-test.sh)"
	@echo "make bench     run the benchmarks (host only; see BENCHMARKS.md)"
	@echo "make fuzz SECONDS=N  libFuzzer (ASan, leak check) on every parser, each target N seconds at nice 19"
	@echo "               (Fuzzing/fuzz.sh; RELIABILITY.md '1. Fuzzing'; default 60; FUZZ_RELEASE=1: the optimized"
	@echo "               sanitizer build, about 3x the executions per second, for long runs; FUZZ_RUNS=N: a"
	@echo "               target also ends after N executions, e.g. FUZZ_RUNS=10000000 SECONDS=36000)"
	@echo "make test-fuzz the bounded form in make test: the sanitizer build, every regression fixture replayed,"
	@echo "               then each target $(TEST_FUZZ_SECONDS) s"
	@echo "make faults    the injected-fault tests alone (I2C, PCM, GPIO, full disk, vanished media, corrupt"
	@echo "               settings; RELIABILITY.md section 3); make test-host runs them too"
	@echo "make mca       cycles per sample of the DSP hot loops in the make arm binary (llvm-mca, A72/A53)"

deps:
	@image/host-deps.sh host

# The injected-fault tests (RELIABILITY.md section 3), a part of test-host run on their own.
FAULT_TESTS = FaultTests|aCorruptSettingsFileIsKeptAsideAndReported|aFullDiskRefusesAndStopsRecordingCleanly|aRecordingOnAFullDiskStopsWithItsFileFinalized|withNoThresholdADiskWithoutASecondOfRoomIsStillFull
faults: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --filter '$(FAULT_TESTS)'

build: deps
	$(SWIFT) build

# The appliance on the simulated board, its console on this terminal, its state in ./.appliance/.
# The appliance on the simulated board, its console on this terminal. A first run gets a demo track (sox) in
# .appliance/media, so `play` has something to play.
run: build
	@mkdir -p .appliance/media
	@ls .appliance/media | grep -q . || sox -n -r 48000 -c 2 -b 16 .appliance/media/demo-sweep.wav \
		synth 10 sine 220/880 gain -12
	$(SWIFT) run appliance run --board simulated --state .appliance

# Host tests, the command-line tests against the host's release build, then the release binaries for the board
# (checked to be aarch64 and to start under qemu), then the same tests on aarch64, then the aarch64 binary against
# real kernel drivers in a QEMU guest, then the SD-card image booted under QEMU's raspi3b (test-image).
test: test-host test-soak test-release test-fuzz arm test-arm test-system test-image

test-host: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test $(SWIFT_TEST_FLAGS)

# The soak (RELIABILITY.md, part 4): a seeded random walk of console lines, button gestures and jack events on the
# whole appliance on the manual clock, invariants checked after every step. test-soak is the bounded form make
# test runs; `make soak SOAK_HOURS=24 SEED=N` the full day (its figures are in RELIABILITY.md).
SOAK_HOURS ?= 24
SEED ?= 1
test-soak: deps
	$(SWIFT) build --build-tests
	SOAK_HOURS=2 SEED=1,2 $(SWIFT) test --skip-build --filter SoakTests

soak: deps
	$(SWIFT) build --build-tests
	SOAK_HOURS=$(SOAK_HOURS) SEED=$(SEED) nice -n 19 $(SWIFT) test --skip-build --filter SoakTests

# The command-line tests run the optimized binary too: a crash only the release build has (issue 11: every
# `codec trace` segfaulted there) fails here, not on a board.
test-release: deps
	$(SWIFT) build -c release --product appliance
	$(SWIFT) build --build-tests
	APPLIANCE_BINARY="$$($(SWIFT) build -c release --show-bin-path)/appliance" \
		$(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS) --filter applianceTests

# Power cuts while recording, the long run (RELIABILITY.md section 2; `make test` runs it bounded): the release
# binary recording every format, SIGKILLed at seeded points, restarted, each take checked (PowerCutTests).
POWERCUT_RUNS ?= 100
powercut: deps
	$(SWIFT) build -c release --product appliance
	$(SWIFT) build --build-tests
	POWERCUT_RUNS=$(POWERCUT_RUNS) $(if $(POWERCUT_SEED),POWERCUT_SEED=$(POWERCUT_SEED)) \
		APPLIANCE_BINARY="$$($(SWIFT) build -c release --show-bin-path)/appliance" \
		$(SWIFT) test --skip-build $(SWIFT_TEST_FLAGS) --filter PowerCutTests

arm:
	@image/host-deps.sh arm
	@image/cross/arm.sh build

test-arm:
	@image/host-deps.sh arm
	@image/cross/arm.sh test
	$(SWIFT) build -c release --product appliance
	@image/cross/render-determinism.sh "$$($(SWIFT) build -c release --show-bin-path)/appliance"

test-system: arm
	@image/host-deps.sh system
	@image/system/system.sh test
	@image/system/system.sh powercut

# The arm64 Debian package (image/deb/): .build-deb/appliance_<version>_arm64.deb from the `make arm` binary, with
# the overlays image/overlays/build.sh compiles (it renders them with the host's debug build: deps).
deb: arm deps
	@image/host-deps.sh deb
	@image/host-deps.sh overlays
	@image/deb/build.sh

# lintian and the package's own checks (contents, modes, conffiles, Depends against trixie arm64), then install,
# upgrade, remove and purge in a trixie arm64 root under qemu-system-aarch64 -M virt (the image's base root and runner, image/rpi/).
test-deb: deb
	@image/host-deps.sh image
	@image/deb/check.sh
	@image/deb/test-install.sh

# The device-tree overlays, generated from the board files (image/overlays/build.sh); check-overlays applies them
# to Debian's Pi device trees (needs the test-system cache).
overlays:
	@image/host-deps.sh overlays
	@image/overlays/build.sh .build-overlays

check-overlays: overlays
	@image/overlays/check.sh .build-overlays

# The SD-card image: Debian trixie arm64 configured inside a QEMU guest (no binfmt_misc, no loop devices), the
# appliance installed, genimage for the MBR disk (image/rpi/build.sh; README.md "Flash it").
BOARD ?= waveshare-wm8960
export BOARD

image: deb
	@image/host-deps.sh image
	@image/host-deps.sh overlays
	@image/rpi/build.sh release

image-raw: deb
	@image/host-deps.sh image
	@image/host-deps.sh overlays
	@image/rpi/build.sh raw

# The image boots on a Pi 3 as QEMU models it: the overlays' and the package's checks, then the boot smoke test
# (the package first: the image installs it, and its check reads it).
test-image: deb
	@image/host-deps.sh boot
	@image/rpi/test-image.sh

# llvm-mca's Cortex-A72/A53 cost of the hot loops of the shipped aarch64 binary (Benchmarks/mca/loop-cost.sh).
mca: arm
	@image/host-deps.sh mca
	@Benchmarks/mca/loop-cost.sh

# libFuzzer on every parser (Fuzzing/: its own package, built with -sanitize=fuzzer,address). A finding fails the
# run and is left in Fuzzing/Findings/<target>/; fixed ones are kept in Fuzzing/Regressions/<target>/.
SECONDS ?= 60
TEST_FUZZ_SECONDS ?= 10

fuzz: deps
	@Fuzzing/fuzz.sh build
	@Fuzzing/fuzz.sh seeds
	@Fuzzing/fuzz.sh run $(SECONDS)

# The bounded form (make test): build, replay the fixtures, each target TEST_FUZZ_SECONDS (under 8 minutes in all
# on a 2-core machine); its logs are .build/fuzz-<target>-test.log, apart from a long run's beside it.
test-fuzz: deps
	@Fuzzing/fuzz.sh build
	@Fuzzing/fuzz.sh seeds
	@FUZZ_INSTANCE=test Fuzzing/fuzz.sh run $(TEST_FUZZ_SECONDS)

bench:
	cd Benchmarks && mkdir -p .build && $(SWIFT) package --allow-writing-to-package-directory benchmark \
		--format markdown --path stdout --no-progress --time-units nanoseconds | tee .build/benchmarks.md \
		| python3 summarize.py

clean:
	rm -rf .build
